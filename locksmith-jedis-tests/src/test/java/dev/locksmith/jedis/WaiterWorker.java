package dev.locksmith.jedis;

import java.time.Duration;

import org.springframework.context.ConfigurableApplicationContext;

import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

/**
 * A worker JVM of {@link ShutdownWithRedisGoneTests}: waits, on its main thread, for a lock that
 * another process holds, until it is shut down. Argument: Redis port.
 */
public final class WaiterWorker {

	static final String LOCK = "held-elsewhere";

	private WaiterWorker() {
	}

	public static void main(String[] args) throws Exception {
		ConfigurableApplicationContext context = JedisWorkerApplication.run(Integer.parseInt(args[0]));
		context.getBean(LockService.class)
			.acquire(LOCK, LockOptions.ofTtl(Duration.ofSeconds(30)).withWaitTime(Duration.ofHours(1)))
			.close();
	}

}
