package dev.locksmith.redis;

import java.time.Duration;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;

/**
 * A separate JVM that waits for one lock, records its name in {@link #GRANTS} once it holds it, and
 * releases it, for {@link FairHandOverProcessTests}. Arguments: Redis port, lock key, worker name.
 */
public final class QueuedWaiterWorker {

	static final String GRANTS = "test:grants";

	private QueuedWaiterWorker() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		try (WorkerLocks worker = new WorkerLocks(port, Duration.ofSeconds(5))) {
			LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(30)).withWaitTime(Duration.ofMinutes(2));
			try (LockHandle lock = worker.locks.acquire(args[1], options)) {
				new StringRedisTemplate(worker.connections).opsForList().rightPush(GRANTS, args[2]);
			}
		}
		System.exit(0);
	}

}
