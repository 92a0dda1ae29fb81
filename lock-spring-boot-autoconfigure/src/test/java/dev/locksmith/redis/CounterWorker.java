package dev.locksmith.redis;

import java.time.Duration;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;

/**
 * A separate JVM for {@link CrossProcessMutualExclusionTests}: increments a counter kept in Redis
 * with a non-atomic read-modify-write, under the lock, and logs each grant's fencing token.
 * Arguments: Redis port, number of increments.
 */
public final class CounterWorker {

	static final String LOCK = "shared-counter";

	static final String COUNTER = "test:counter";

	static final String FENCING_LOG = "test:fencing-log";

	private CounterWorker() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		int increments = Integer.parseInt(args[1]);
		try (WorkerLocks worker = new WorkerLocks(port, Duration.ofSeconds(5))) {
			StringRedisTemplate redis = new StringRedisTemplate(worker.connections);
			LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(10)).withWaitTime(Duration.ofMinutes(2));
			for (int i = 0; i < increments; i++) {
				try (LockHandle lock = worker.locks.acquire(LOCK, options)) {
					String current = redis.opsForValue().get(COUNTER);
					long next = (current != null) ? Long.parseLong(current) + 1 : 1;
					redis.opsForValue().set(COUNTER, Long.toString(next));
					redis.opsForList().rightPush(FENCING_LOG, Long.toString(lock.fencingToken()));
				}
			}
		}
		System.exit(0);
	}

}
