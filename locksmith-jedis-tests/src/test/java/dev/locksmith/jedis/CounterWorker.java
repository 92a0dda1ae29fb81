package dev.locksmith.jedis;

import java.time.Duration;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

/**
 * A worker JVM of {@link CrossProcessWaitingTests}: increments a counter in Redis with a non-atomic
 * read-modify-write under one lock. Arguments: Redis port, number of increments.
 */
public final class CounterWorker {

	static final String LOCK = "shared-counter";

	static final String COUNTER = "test:counter";

	private CounterWorker() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		int increments = Integer.parseInt(args[1]);
		LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(30)).withWaitTime(Duration.ofMinutes(5));
		try (ConfigurableApplicationContext context = JedisWorkerApplication.run(port)) {
			LockService locks = context.getBean(LockService.class);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			for (int i = 0; i < increments; i++) {
				try (LockHandle lock = locks.acquire(LOCK, options)) {
					String current = redis.opsForValue().get(COUNTER);
					long next = (current != null) ? Long.parseLong(current) + 1 : 1;
					redis.opsForValue().set(COUNTER, Long.toString(next));
				}
			}
		}
		System.exit(0);
	}

}
