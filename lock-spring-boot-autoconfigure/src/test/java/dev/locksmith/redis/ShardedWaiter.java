package dev.locksmith.redis;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock held by one lock service and waited for by another, whose waiters re-check only every
 * {@link #RECHECK}: a waiter woken well before that was woken by the release's notification. For the tests
 * of sharded pub/sub on a cluster.
 */
final class ShardedWaiter {

	static final Duration LONG = Duration.ofSeconds(30);

	/** Long enough that a waiter woken before it was woken by the notification, not by a re-check. */
	static final Duration RECHECK = Duration.ofSeconds(30);

	/** Well under {@link #RECHECK}, and generous for a busy machine. */
	static final Duration PROMPTLY = Duration.ofSeconds(10);

	private static final RedisLockKeys KEYS = RedisFixture.KEYS;

	private final LockHandle held;

	private final CompletableFuture<Optional<LockHandle>> waiting;

	private ShardedWaiter(LockHandle held, CompletableFuture<Optional<LockHandle>> waiting) {
		this.held = held;
		this.waiting = waiting;
	}

	/**
	 * Takes the lock of {@code key} on a service of {@code holders} and has a service of {@code waiters} wait
	 * for it, until the waiter stands in its queue.
	 */
	static ShardedWaiter waitFor(String key, RedisFixture holders, RedisFixture waiters) throws InterruptedException {
		LockHandle held = service(holders).tryAcquire(key, LockOptions.ofTtl(LONG)).orElseThrow();
		DefaultLockService waiter = service(waiters);
		CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture.supplyAsync(() -> {
			try {
				return waiter.tryAcquire(key, LockOptions.ofTtl(LONG).withWaitTime(LONG));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		StringRedisTemplate redis = new StringRedisTemplate(holders.connect());
		await().atMost(PROMPTLY).until(() -> Long.valueOf(1).equals(redis.opsForList().size(KEYS.queueKey(key))));
		return new ShardedWaiter(held, waiting);
	}

	/** A service whose waiters re-check only every {@link #RECHECK}. */
	static DefaultLockService service(RedisFixture on) {
		return on.service(on.serviceBuilder(RECHECK.multipliedBy(2)).recheckInterval(RECHECK));
	}

	/** How many clients listen on the shard channel of {@code key} on {@code node}. */
	static int shardSubscribers(RedisServer node, String key) {
		return Integer.parseInt(node.command("PUBSUB", "SHARDNUMSUB", KEYS.releaseChannel(key)).split("\n")[1]);
	}

	/** Releases the lock, and asserts that the waiter got it {@link #PROMPTLY}. */
	void releaseAndExpectTheWaiterWoken() throws Exception {
		this.held.close();
		assertThat(this.waiting.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS))
			.as("the waiter woken by the notification, well before its %ss re-check", RECHECK.toSeconds())
			.isPresent();
	}

}
