package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;

import static dev.locksmith.redis.RedlockFixture.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Script storms on Redlock (issue 25), counted with {@code INFO commandstats} on real servers: under
 * contention the scripts per grant must not grow with the waiters, and a release that frees no lock a
 * waiter could take must wake nobody.
 */
@Tag("slow")
class RedlockScriptStormTests extends RedlockTestSupport {

	/** Most scripts, on all servers together, per grant; 42 before waiters were woken one at a time. */
	private static final double SCRIPTS_PER_GRANT = 20;

	private static final LockOptions WAITING = LONG.withWaitTime(Duration.ofMinutes(1));

	/** 6 contenders (2 processes of 3 threads) take one lock 10 times each. */
	@Test
	void sixContendersOnOneLockCostABoundedNumberOfScriptsPerGrant() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		List<DefaultLockService> processes = List.of(this.redlock.service(nodes), this.redlock.service(nodes));
		resetStats(nodes);
		AtomicInteger grants = new AtomicInteger();
		List<CompletableFuture<Void>> contenders = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			DefaultLockService locks = processes.get(i % 2);
			contenders.add(CompletableFuture.runAsync(() -> {
				for (int round = 0; round < 10; round++) {
					try (LockHandle handle = locks.tryAcquire("job", WAITING).orElseThrow()) {
						grants.incrementAndGet();
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				}
			}));
		}
		CompletableFuture.allOf(contenders.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);

		long scripts = scripts(nodes);
		System.out.printf("Redlock, 6 contenders: %d scripts for %d grants, %.1f per grant%n", scripts, grants.get(),
				(double) scripts / grants.get());
		assertThat(grants).hasValue(60);
		assertThat((double) scripts / grants.get()).as("%d scripts for %d grants", scripts, grants.get())
			.isLessThanOrEqualTo(SCRIPTS_PER_GRANT);
	}

	/**
	 * Another owner holds the lock on two of three servers; the third is free. Each waiter's attempt wins
	 * that one server only and gives it back: a give-back that must wake no other waiter, or the waiters
	 * wake each other in a loop for as long as they wait.
	 */
	@Test
	void waitersOfALockHeldByAQuorumDoNotWakeEachOther() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		nodes.get(0).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");
		nodes.get(1).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");
		DefaultLockService locks = this.redlock.serviceBuilder(nodes).recheckInterval(Duration.ofHours(1)).build();
		resetStats(nodes);
		List<CompletableFuture<Boolean>> waiters = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			waiters.add(CompletableFuture.supplyAsync(() -> {
				try {
					return locks.tryAcquire("job", LONG.withWaitTime(Duration.ofSeconds(2))).isPresent();
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException(ex);
				}
			}));
		}
		for (CompletableFuture<Boolean> waiter : waiters) {
			assertThat(waiter.get(1, TimeUnit.MINUTES)).isFalse();
		}
		locks.close();

		long scripts = scripts(nodes);
		System.out.printf("Redlock, 3 waiters of a lock held by a quorum for 2 s: %d scripts%n", scripts);
		assertThat(scripts).as("scripts of 3 waiters that each wake only for their first attempts and give up")
			.isLessThanOrEqualTo(3 * 20);
	}

	/**
	 * Releases that free no lock a waiter could take announce nothing: the give-back of a failed quorum
	 * attempt, a waiter that gives up, and the close of a handle whose lease lapsed on a majority. A
	 * release of another lock, announced after them on the same connections, marks the end: its notice
	 * comes after any of theirs.
	 */
	@Test
	void releasesThatFreeNoLockAWaiterCouldTakeAnnounceNothing() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		List<List<String>> notices = new ArrayList<>();
		List<RedisReleaseNotifications> subscribers = new ArrayList<>();
		List<LettuceConnectionFactory> connections = new ArrayList<>();
		for (RedisServer node : nodes) {
			List<String> received = new CopyOnWriteArrayList<>();
			LettuceConnectionFactory connection = node.connectionFactory();
			connections.add(connection);
			RedisReleaseNotifications subscriber = RedisReleaseNotifications.started(connection, KEYS);
			subscriber.listen((key, ownerToken, claimLease, fencingToken) -> received.add(key));
			subscriber.watch("job", Duration.ofSeconds(10));
			subscriber.watch("mark", Duration.ofSeconds(10));
			notices.add(received);
			subscribers.add(subscriber);
		}
		try {
			DefaultLockService locks = this.redlock.service(nodes);
			LockHandle lapsed = locks.tryAcquire("job", LONG.withRenew(false)).orElseThrow();
			nodes.get(0).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");
			nodes.get(1).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");
			lapsed.close();
			assertThat(locks.tryAcquire("job", LONG)).as("a failed quorum attempt").isEmpty();
			assertThat(locks.tryAcquire("job", LONG.withWaitTime(Duration.ofMillis(50)))).as("a waiter that gives up")
				.isEmpty();
			locks.tryAcquire("mark", LONG).orElseThrow().close();

			for (List<String> received : notices) {
				await().until(() -> received.contains("mark"));
				assertThat(received.subList(0, received.indexOf("mark"))).doesNotContain("job");
			}
		}
		finally {
			for (RedisReleaseNotifications subscriber : subscribers) {
				subscriber.destroy();
			}
			connections.forEach(LettuceConnectionFactory::destroy);
		}
	}

	private static void resetStats(List<RedisServer> nodes) {
		nodes.forEach(RedisServer::resetStats);
	}

	private static long scripts(List<RedisServer> nodes) {
		return nodes.stream().mapToLong((node) -> node.callsOf("evalsha", "eval")).sum();
	}

}
