package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;

import static dev.locksmith.redis.RedlockFixture.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Redlock's quorum on real {@code redis-server} processes: which servers must grant, what a refused or
 * failed attempt leaves behind, and how locking rides out servers that die or freeze.
 */
class RedlockQuorumTests extends RedlockTestSupport {

	/** Every subset of 3 and of 5 servers, as a bit mask of those where another owner holds the lock. */
	static Stream<Arguments> foreignHolders() {
		return Stream.of(3, 5)
			.flatMap((count) -> IntStream.range(0, 1 << count).mapToObj((mask) -> Arguments.of(count, mask)));
	}

	@ParameterizedTest(name = "{0} servers, held elsewhere on mask {1}")
	@MethodSource("foreignHolders")
	void acquiresExactlyWhenTheFreeServersAreAMajorityAndLeavesNothingBehindOtherwise(int count, int foreignMask)
			throws Exception {
		List<RedisServer> nodes = servers.first(count);
		for (int i = 0; i < count; i++) {
			if (isForeign(foreignMask, i)) {
				nodes.get(i).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");
			}
		}
		boolean freeMajority = count - Integer.bitCount(foreignMask) > count / 2;

		Optional<LockHandle> handle = this.redlock.service(nodes).tryAcquire("job", LONG);

		assertThat(handle.isPresent()).as("granted").isEqualTo(freeMajority);
		for (int i = 0; i < count; i++) {
			String value = nodes.get(i).command("GET", KEYS.lockKey("job"));
			if (isForeign(foreignMask, i)) {
				assertThat(value).as("server %d keeps the other owner's lock", i).isEqualTo(FOREIGN);
			}
			else if (freeMajority) {
				assertThat(value).as("server %d holds ours", i).isNotNull().isNotEqualTo(FOREIGN);
			}
			else {
				assertThat(nodes.get(i).command("EXISTS", KEYS.lockKey("job"))).as("server %d left empty", i)
					.isEqualTo("0");
			}
		}
	}

	@ParameterizedTest(name = "{0} servers, held elsewhere on mask {1}")
	@MethodSource("foreignHolders")
	void isLockedExactlyWhenAMajorityOfTheServersHoldTheKey(int count, int foreignMask) throws Exception {
		List<RedisServer> nodes = servers.first(count);
		for (int i = 0; i < count; i++) {
			if (isForeign(foreignMask, i)) {
				nodes.get(i).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");
			}
		}
		boolean heldByMajority = Integer.bitCount(foreignMask) > count / 2;

		assertThat(this.redlock.service(nodes).isLocked("job")).isEqualTo(heldByMajority);
	}

	@Test
	void isLockedSeesAnotherOwnersLockWhileAQuorumAnswersAndFailsClosedWithout() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		DefaultLockService holder = this.redlock.service(nodes);
		DefaultLockService other = this.redlock.service(nodes);
		holder.tryAcquire("job", LONG).orElseThrow();
		nodes.get(0).kill();

		assertThat(other.isLocked("job")).as("two of three servers answer").isTrue();
		assertThat(other.isLocked("other-job")).isFalse();

		nodes.get(1).kill();
		assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> other.isLocked("job"))
			.withMessageContaining("Only 1 of 3 Redis servers answered the lookup of '******'")
			.withMessageContaining("a quorum needs 2");
	}

	@Test
	void severalKeysAreGrantedAllOrNothingOnEachServerAndByQuorum() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		nodes.get(0).command("SET", KEYS.lockKey("b"), FOREIGN, "PX", "30000");
		DefaultLockService locks = this.redlock.service(nodes);

		assertThat(locks.tryAcquireAll(List.of("a", "b"), LONG)).isPresent();
		assertThat(nodes.get(0).command("EXISTS", KEYS.lockKey("a"))).as("no partial grant on a server").isEqualTo("0");

		nodes.get(1).command("SET", KEYS.lockKey("c"), FOREIGN, "PX", "30000");
		nodes.get(2).command("SET", KEYS.lockKey("d"), FOREIGN, "PX", "30000");
		assertThat(locks.tryAcquireAll(List.of("c", "d"), LONG)).as("only server 0 grants both").isEmpty();
		assertThat(nodes.get(0).command("EXISTS", KEYS.lockKey("c"), KEYS.lockKey("d"))).isEqualTo("0");
		assertThat(nodes.get(1).command("EXISTS", KEYS.lockKey("d"))).isEqualTo("0");
		assertThat(nodes.get(2).command("EXISTS", KEYS.lockKey("c"))).isEqualTo("0");
	}

	@Test
	void lockingGoesOnWhenOneServerIsKilledMidRun() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		DefaultLockService locks = this.redlock.service(nodes);
		DefaultLockService other = this.redlock.service(nodes);
		List<Throwable> failures = new CopyOnWriteArrayList<>();
		List<Long> tokens = new CopyOnWriteArrayList<>();
		Thread worker = new Thread(() -> {
			while (!Thread.currentThread().isInterrupted()) {
				try (LockHandle handle = locks.tryAcquire("job", LONG).orElseThrow()) {
					tokens.add(handle.fencingToken());
				}
				catch (InterruptedException ex) {
					return;
				}
				catch (RuntimeException ex) {
					failures.add(ex);
				}
			}
		});
		worker.start();
		try {
			await().until(() -> tokens.size() >= 10);
			nodes.get(0).kill();
			int atKill = tokens.size();
			await().until(() -> tokens.size() >= atKill + 20);
		}
		finally {
			worker.interrupt();
			worker.join();
		}

		assertThat(failures).isEmpty();
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		// The worker's last attempt, cut short by the interrupt, is released in the background: wait for it.
		try (LockHandle held = locks.tryAcquire("job", LONG.withWaitTime(Duration.ofSeconds(30))).orElseThrow()) {
			assertThat(other.tryAcquire("job", LONG)).as("still exclusive on two servers").isEmpty();
		}
	}

	@Test
	void aMajorityKilledFailsClosedAndLeavesNothingBehind() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		DefaultLockService locks = this.redlock.service(nodes);
		nodes.get(1).kill();
		nodes.get(2).kill();

		assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> locks.tryAcquire("job", LONG))
			.withMessageContaining("Only 1 of 3 Redis servers answered the acquire of '******'")
			.withMessageContaining("a quorum needs 2");
		assertThat(nodes.get(0).command("EXISTS", KEYS.lockKey("job"))).isEqualTo("0");
	}

	@Test
	void aFrozenMajorityFailsClosedAndLeavesNothingBehindOnceItWakes() throws Exception {
		List<RedisServer> nodes = servers.first(5);
		DefaultLockService locks = this.redlock.service(nodes);
		List<RedisServer> frozen = new ArrayList<>(nodes.subList(2, 5));
		frozen.forEach(RedisServer::pause);
		try {
			assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> locks.tryAcquire("job", LONG))
				.withMessageContaining("Only 2 of 5")
				.withMessageContaining("timed out");
			assertThat(nodes.get(0).command("EXISTS", KEYS.lockKey("job"))).isEqualTo("0");
			assertThat(nodes.get(1).command("EXISTS", KEYS.lockKey("job"))).isEqualTo("0");
		}
		finally {
			frozen.forEach(RedisServer::resume);
		}
		await()
			.untilAsserted(() -> assertThat(nodes).allSatisfy(
					(node) -> assertThat(node.command("EXISTS", KEYS.lockKey("job"))).isEqualTo("0")));
	}

	private static boolean isForeign(int mask, int server) {
		return (mask & (1 << server)) != 0;
	}

}
