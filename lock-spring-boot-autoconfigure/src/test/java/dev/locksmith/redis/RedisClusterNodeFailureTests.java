package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostEvent;
import dev.locksmith.core.LostLeaseRecorder;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * One node of a three-node Redis Cluster freezes ({@code SIGSTOP}) or dies ({@code kill -9}) while
 * locks span the nodes: only the locks of that node are affected. Each test gets a fresh cluster.
 */
@Tag("slow")
class RedisClusterNodeFailureTests {

	private static final RedisLockKeys KEYS = RedisFixture.KEYS;

	private static final Duration LONG = Duration.ofSeconds(30);

	private final List<AutoCloseable> resources = new ArrayList<>();

	private RedisCluster cluster;

	private DefaultLockService locks;

	@BeforeEach
	void startCluster() throws Exception {
		this.cluster = RedisCluster.start();
		this.locks = newService(Duration.ofMillis(10));
	}

	@AfterEach
	void stopCluster() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		this.cluster.close();
	}

	@Test
	void aFrozenNodeInALaterSlotLeavesNoLockOnTheOthersAndItsLateGrantIsGivenBack() throws Exception {
		RedisServer healthy = this.cluster.nodes().get(0);
		RedisServer frozen = this.cluster.nodes().get(1);
		String first = keyServedBy(healthy, "a");
		String later = keyServedBy(frozen, "b");
		frozen.pause();
		try {
			assertThatExceptionOfType(LockUnavailableException.class)
				.isThrownBy(() -> this.locks.tryAcquireAll(List.of(first, later), LockOptions.ofTtl(LONG)));
			await().atMost(Duration.ofSeconds(10))
				.alias("the healthy node's lock given back while the other node is still frozen")
				.until(() -> healthy.command("EXISTS", KEYS.lockKey(first)).equals("0"));
		}
		finally {
			frozen.resume();
		}
		await().atMost(Duration.ofSeconds(20))
			.alias("the frozen node's late grant given back once it answers")
			.until(() -> frozen.command("EXISTS", KEYS.lockKey(later)).equals("0"));
	}

	@Test
	void aKilledNodeInALaterSlotLeavesNoLockOnTheOthers() {
		RedisServer healthy = this.cluster.nodes().get(0);
		RedisServer killed = this.cluster.nodes().get(2);
		String first = keyServedBy(healthy, "a");
		String later = keyServedBy(killed, "z");
		killed.kill();

		assertThatExceptionOfType(LockUnavailableException.class)
			.isThrownBy(() -> this.locks.tryAcquireAll(List.of(first, later), LockOptions.ofTtl(LONG)));
		await().atMost(Duration.ofSeconds(10))
			.alias("the healthy node's lock given back")
			.until(() -> healthy.command("EXISTS", KEYS.lockKey(first)).equals("0"));
	}

	@Test
	void aFrozenNodeLosesOnlyTheLeasesItKeeps() throws Exception {
		List<LockLostEvent> lost = LostLeaseRecorder.listeningTo(this.locks).events();
		RedisServer frozen = this.cluster.nodes().get(1);
		List<String> healthyKeys = new ArrayList<>();
		List<String> frozenKeys = new ArrayList<>();
		List<LockHandle> handles = new ArrayList<>();
		for (RedisServer node : this.cluster.nodes()) {
			for (String name : List.of("x", "y")) {
				String key = keyServedBy(node, name);
				handles.add(this.locks.tryAcquire(key, LockOptions.ofTtl(Duration.ofMillis(1500))).orElseThrow());
				((node == frozen) ? frozenKeys : healthyKeys).add(key);
			}
		}

		frozen.pause();
		try {
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(lost).extracting(LockLostEvent::key)
					.containsExactlyInAnyOrderElementsOf(frozenKeys));
			await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
				.alias("the healthy nodes' locks stay in Redis while the node is frozen")
				.until(() -> healthyKeys.stream().allMatch((key) -> existsOnItsNode(key)));
		}
		finally {
			frozen.resume();
		}
		assertThat(lost).extracting(LockLostEvent::key).containsExactlyInAnyOrderElementsOf(frozenKeys);
		assertThat(handles).filteredOn(LockHandle::isHeld)
			.extracting(LockHandle::key)
			.containsExactlyInAnyOrderElementsOf(healthyKeys);
	}

	@Test
	void aLeaseLostWhileItsNodeWasFrozenIsReleasedWhenClosed() throws Exception {
		// A drift allowance of most of the lease makes this process give the lease up long before Redis does.
		DefaultLockService impatient = newService(Duration.ofMillis(9500));
		List<LockLostEvent> lost = LostLeaseRecorder.listeningTo(impatient).events();
		RedisServer node = this.cluster.nodes().get(0);
		String key = keyServedBy(node, "job");
		LockHandle handle = impatient.tryAcquire(key, LockOptions.ofTtl(Duration.ofSeconds(10))).orElseThrow();
		node.pause();
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> !lost.isEmpty());
		}
		finally {
			node.resume();
		}
		assertThat(node.command("EXISTS", KEYS.lockKey(key))).as("still in Redis after the local give-up")
			.isEqualTo("1");

		handle.close();

		assertThat(node.command("EXISTS", KEYS.lockKey(key))).isEqualTo("0");
	}

	/** A service connected to every node, with the scripts loaded, before any node fails. */
	private DefaultLockService newService(Duration driftAllowance) {
		LettuceConnectionFactory connections = this.cluster.connectionFactory();
		RedisLockBackend backend = new RedisLockBackend(connections, KEYS);
		DefaultLockService service = DefaultLockService.builder(backend)
			.storeTimeout(RedisFixture.REDIS_TIMEOUT)
			.driftAllowance(driftAllowance)
			.build();
		this.resources.add(0, connections::destroy);
		this.resources.add(0, backend);
		this.resources.add(0, service);
		for (RedisServer node : this.cluster.nodes()) {
			String key = keyServedBy(node, "warm-up");
			await().atMost(Duration.ofMinutes(1))
				.ignoreException(LockUnavailableException.class)
				.until(() -> service.tryAcquire(key, LockOptions.ofTtl(LONG)).map((handle) -> {
					handle.close();
					return true;
				}).orElse(false));
		}
		return service;
	}

	private boolean existsOnItsNode(String key) {
		return this.cluster.nodeServing(KEYS.lockKey(key)).command("EXISTS", KEYS.lockKey(key)).equals("1");
	}

	/** A key whose lock {@code node} keeps: {@code name} itself, or {@code name} with a number. */
	private String keyServedBy(RedisServer node, String name) {
		for (int i = 0;; i++) {
			String key = (i == 0) ? name : name + i;
			if (this.cluster.nodeServing(KEYS.lockKey(key)) == node) {
				return key;
			}
		}
	}

}
