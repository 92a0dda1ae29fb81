package dev.locksmith.redis;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;

/**
 * A separate JVM for {@link RedlockCrossProcessTests}: under a Redlock lock over the given servers,
 * increments a counter kept on another Redis (the protected resource) with a non-atomic
 * read-modify-write, and logs each grant's fencing token there. Arguments: the lock servers' ports
 * (comma-separated), the resource's port, the lease in milliseconds, the number of increments.
 */
public final class RedlockCounterWorker {

	static final String COUNTER = "test:counter";

	static final String FENCING_LOG = "test:fencing-log";

	private RedlockCounterWorker() {
	}

	public static void main(String[] args) throws Exception {
		List<String> urls = Arrays.stream(args[0].split(",")).map((port) -> "redis://127.0.0.1:" + port).toList();
		LockOptions options = LockOptions.ofTtl(Duration.ofMillis(Long.parseLong(args[2])))
			.withWaitTime(Duration.ofMinutes(2));
		int increments = Integer.parseInt(args[3]);
		try (RedlockServers servers = RedlockServers.connect(urls, "nodes", Duration.ofSeconds(1));
				RedlockLockBackend backend = RedlockLockBackend.builder(servers.connectionFactories(), RedlockFixture.KEYS)
					.build()) {
			RedlockReleaseNotifications notifications = RedlockReleaseNotifications.started(servers.connectionFactories(),
					RedlockFixture.KEYS);
			DefaultLockService locks = DefaultLockService.builder(NotifyingStore.of(backend, notifications))
				.storeTimeout(RedlockFixture.STORE_TIMEOUT)
				.build();
			StringRedisTemplate resource = new StringRedisTemplate(
					RedisServer.connectionFactory(Integer.parseInt(args[1])));
			backend.warmUp().join();
			int done = 0;
			while (done < increments) {
				try (LockHandle lock = locks.acquire("shared-counter", options)) {
					String current = resource.opsForValue().get(COUNTER);
					long next = (current != null) ? Long.parseLong(current) + 1 : 1;
					resource.opsForValue().set(COUNTER, Long.toString(next));
					resource.opsForList().rightPush(FENCING_LOG, Long.toString(lock.fencingToken()));
					done++;
				}
				catch (LockUnavailableException ex) {
					// Too few servers answered in time (one is down, the machine is busy): like a job, try again.
					System.out.println("Retrying: " + ex.getMessage());
				}
			}
		}
		System.exit(0);
	}

}
