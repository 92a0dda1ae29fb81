package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;

import static dev.locksmith.redis.RedlockFixture.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** What operators see of the Redlock servers: each server's state, the locks a quorum holds, forced release. */
class RedlockLockAdministrationTests extends RedlockTestSupport {

	@Test
	void showsEachServerAndPingsOnlyWhileAQuorumAnswers() {
		List<RedisServer> nodes = servers.first(3);
		RedlockLockAdministration administration = administration(nodes, Duration.ofMillis(500));
		assertThat(administration.nodeStates().join()).hasSize(3);
		administration.ping();

		nodes.get(0).kill();
		assertThat(administration.nodeStates().join().get("127.0.0.1:" + nodes.get(0).port())).startsWith("DOWN (connection");
		administration.ping();

		nodes.get(1).pause();
		assertThat(administration.nodeStates().join().get("127.0.0.1:" + nodes.get(1).port())).startsWith("DOWN (timed out after ");
		assertThatExceptionOfType(CompletionException.class).isThrownBy(() -> administration.ping().join())
			.withCauseInstanceOf(LockUnavailableException.class)
			.withMessageContaining("Only 1 of 3 Redis servers answered the ping")
			.withMessageContaining("a quorum needs 2");
	}

	@Test
	void aServerWhoseClientTimedOutFirstIsDownForAsLongAsTheClientWaited() {
		List<RedisServer> nodes = servers.first(3);
		RedlockLockAdministration administration = administration(nodes, Duration.ofSeconds(5));

		nodes.get(1).pause();
		try {
			assertThat(administration.nodeStates().join().get("127.0.0.1:" + nodes.get(1).port()))
				.isEqualTo("DOWN (timed out after " + RedlockFixture.COMMAND_TIMEOUT.toSeconds() + "s)");
		}
		finally {
			nodes.get(1).resume();
		}
	}

	@Test
	void listsTheLocksAQuorumHoldsAndForceReleasesThemEverywhere() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		LockHandle held = this.redlock.service(nodes).tryAcquire("job", LONG).orElseThrow();
		nodes.get(0).command("SET", KEYS.lockKey("minority"), FOREIGN, "PX", "30000");
		RedlockLockAdministration administration = administration(nodes, Duration.ofSeconds(2));

		assertThat(administration.storedLocks(10).join()).extracting(StoredLock::key).containsExactly("job");
		assertThat(administration.forceRelease("job").join()).isTrue();

		assertThat(held.isHeld()).isTrue();
		assertThat(nodes).allSatisfy((node) -> assertThat(node.command("EXISTS", KEYS.lockKey("job"))).isEqualTo("0"));
	}

	@Test
	void doesNotListWaitQueuesAndSaysSo() {
		RedlockLockAdministration administration = administration(servers.first(3), Duration.ofSeconds(2));

		assertThatExceptionOfType(CompletionException.class).isThrownBy(() -> administration.waitQueues(10).join())
			.withCauseInstanceOf(UnsupportedOperationException.class)
			.withMessageContaining("Wait queues are not supported by this store (redlock");
	}

	/** An administration on {@code nodes}, once its first connections, which may take a while, are made. */
	private RedlockLockAdministration administration(List<RedisServer> nodes, Duration timeout) {
		RedlockLockAdministration administration = new RedlockLockAdministration(
				this.redlock.connect(nodes).connectionFactories(), KEYS, timeout, Map::of);
		await("the first connections").until(() -> administration.nodeStates().join().values().stream().allMatch("UP"::equals));
		return administration;
	}

}
