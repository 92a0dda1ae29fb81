package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisClusterExtension;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a real three-node Redis Cluster adds, where the keys of one operation span hash slots; the lock
 * contract itself runs on the cluster in {@code locksmith-test} ({@code RedisClusterLockStoreContractTests}).
 */
@Tag("slow")
class RedisClusterLockServiceTests {

	private static final Duration LONG = Duration.ofSeconds(30);

	private static final RedisLockKeys KEYS = RedisFixture.KEYS;

	/** Keys whose sorted order alternates between two hash slots: {@code a} and {@code c19458} share one. */
	private static final List<String> INTERLEAVED_KEYS = List.of("a", "b", "c19458");

	@RegisterExtension
	static final RedisClusterExtension redisCluster = new RedisClusterExtension();

	private static RedisCluster cluster;

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> cluster.connectionFactory());

	private DefaultLockService locks;

	@BeforeAll
	static void findCluster() {
		cluster = redisCluster.cluster();
	}

	@BeforeEach
	void createService() {
		this.locks = this.fixture.service();
	}

	@Test
	void locksInManyHashSlotsAreRenewedTogether() throws Exception {
		List<String> keys = List.of("a", "b", "c", "d", "e", "f");
		assertThat(keys.stream().map((key) -> ClusterSlotHashUtil.calculateSlot(KEYS.lockKey(key))).distinct())
			.as("the keys spread over several slots")
			.hasSizeGreaterThan(3);
		for (String key : keys) {
			this.locks.tryAcquire(key, LockOptions.ofTtl(Duration.ofMillis(1500))).orElseThrow();
		}

		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.locks.heldLocks().stream().allMatch((lock) -> lock.renewals() >= 2));
		assertThat(this.locks.heldLocks()).extracting(LockInfo::key).containsExactlyInAnyOrderElementsOf(keys);
	}

	@Test
	void theStoredLocksOfEveryNodeAreListedAndCanBeForceReleased() throws Exception {
		List<String> keys = List.of("a", "b", "c", "d", "e", "f");
		for (String key : keys) {
			this.locks.tryAcquire(key, LockOptions.ofTtl(LONG)).orElseThrow();
		}
		LettuceConnectionFactory connections = this.fixture.connect();
		RedisLockAdministration administration = new RedisLockAdministration(connections, KEYS);

		assertThat(administration.storedLocks(100).join()).extracting(LockAdministration.StoredLock::key)
			.containsExactlyInAnyOrderElementsOf(keys);
		assertThat(administration.storeDescription()).isEqualTo("redis-cluster");
		assertThat(administration.forceRelease("c").join()).isTrue();
		assertThat(this.fixture.service().tryAcquire("c", LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void aWaiterRefusedInOneSlotKeepsNoLockHandedToItInAnother() throws Exception {
		Duration longClaim = Duration.ofMinutes(1);
		DefaultLockService waiting = this.fixture.service(this.fixture.serviceBuilder(longClaim));
		DefaultLockService other = this.fixture.service(this.fixture.serviceBuilder(longClaim));
		LockHandle f = this.fixture.service(this.fixture.serviceBuilder(longClaim)).tryAcquire("f", LockOptions.ofTtl(LONG)).orElseThrow();
		CompletableFuture<Optional<LockHandle>> both = CompletableFuture.supplyAsync(() -> {
			try {
				return waiting.tryAcquireAll(List.of("a", "f"), LockOptions.ofTtl(LONG).withWaitTime(LONG));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		StringRedisTemplate redis = new StringRedisTemplate(this.fixture.connect());
		await().until(() -> Long.valueOf(1).equals(redis.opsForList().size(KEYS.queueKey("f"))));
		LockHandle a = other.tryAcquire("a", LockOptions.ofTtl(LONG)).orElseThrow();

		f.close();

		await().atMost(Duration.ofSeconds(20)).alias("'f' free again after it was handed to the waiter").until(() -> {
			Optional<LockHandle> probe = other.tryAcquire("f", LockOptions.ofTtl(LONG));
			probe.ifPresent(LockHandle::close);
			return probe.isPresent();
		});
		a.close();
		assertThat(both.get(30, TimeUnit.SECONDS)).as("the waiter got both once they were free").isPresent();
	}

	@Test
	void aWaiterRefusedInOneSlotKeepsItsPlaceInTheQueuesOfTheOthers() throws Exception {
		RedisLockBackend backend = new RedisLockBackend(this.fixture.connect(), KEYS);
		this.fixture.closeWith(backend);
		StringRedisTemplate redis = new StringRedisTemplate(this.fixture.connect());
		assertThat(ClusterSlotHashUtil.calculateSlot(KEYS.lockKey("a")))
			.isNotEqualTo(ClusterSlotHashUtil.calculateSlot(KEYS.lockKey("f")));
		assertThat(attempt(backend, List.of("a"), "holder:a").acquired()).isTrue();
		assertThat(attempt(backend, List.of("f"), "holder:f").acquired()).isTrue();
		assertThat(attempt(backend, List.of("a", "f"), "both:waiter").busyKey()).isEqualTo("a");
		assertThat(attempt(backend, List.of("a"), "next:waiter").acquired()).isFalse();

		backend.release(List.of("a"), TestOwners.owner("holder:a")).get();
		assertThat(attempt(backend, List.of("a", "f"), "both:waiter").busyKey()).isEqualTo("f");
		assertThat(redis.opsForList().range(KEYS.queueKey("a"), 0, -1)).as("parked in the slot it was handed 'a' in")
			.containsExactly("both:waiter");
		assertThat(attempt(backend, List.of("a"), "next:waiter").acquired()).as("'a' was passed on").isTrue();
		assertThat(attempt(backend, List.of("a"), "later:waiter").acquired()).isFalse();

		backend.release(List.of("f"), TestOwners.owner("holder:f")).get();
		assertThat(attempt(backend, List.of("a", "f"), "both:waiter").busyKey()).isEqualTo("a");
		backend.release(List.of("a"), TestOwners.owner("next:waiter")).get();
		assertThat(redis.opsForValue().get(KEYS.lockKey("a")))
			.as("handed to the waiter for both, which waits for 'a' from its old place, ahead of the later waiter")
			.isEqualTo("both:waiter");
		assertThat(attempt(backend, List.of("a", "f"), "both:waiter").acquired()).isTrue();
	}

	private static AcquireResult attempt(RedisLockBackend backend, List<String> keys, String ownerToken)
			throws Exception {
		return backend.tryAcquire(TestOwners.request(keys, ownerToken, LONG, LONG)).get();
	}

	@Test
	void theEvictionPolicyOfEveryMasterIsChecked() {
		RedisServer evicting = cluster.nodes().get(1);
		evicting.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
		try {
			assertThat(new EvictionPolicyCheck(this.fixture.connect()).check()).hasSize(3)
				.containsEntry("Redis node 127.0.0.1:" + evicting.port(), "allkeys-lru")
				.containsValues("noeviction");
		}
		finally {
			evicting.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
		}
	}

	@Test
	void aKeyThatStartsWithAClosingBraceIsLockedAndListedLikeAnyOther() throws Exception {
		LockHandle handle = this.locks.tryAcquireAll(List.of("a", "}x"), LockOptions.ofTtl(LONG)).orElseThrow();

		assertThat(this.fixture.service().tryAcquire("}x", LockOptions.ofTtl(LONG))).isEmpty();
		RedisLockAdministration administration = new RedisLockAdministration(this.fixture.connect(), KEYS);
		assertThat(administration.storedLocks(100).join()).extracting(LockAdministration.StoredLock::key)
			.containsExactlyInAnyOrder("a", "}x");
		handle.close();
		assertThat(this.fixture.service().tryAcquire("}x", LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void aFailingLockInALaterSlotGivesBackTheLocksAlreadyTaken() throws Exception {
		StringRedisTemplate redis = new StringRedisTemplate(this.fixture.connect());
		assertThat(ClusterSlotHashUtil.calculateSlot(KEYS.lockKey("a")))
			.isNotEqualTo(ClusterSlotHashUtil.calculateSlot(KEYS.lockKey("b")));
		redis.opsForHash().put(KEYS.fenceKey("b"), "not", "a counter");

		assertThatExceptionOfType(LockUnavailableException.class)
			.isThrownBy(() -> this.locks.tryAcquireAll(List.of("a", "b"), LockOptions.ofTtl(LONG)));
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(List.of("a", "b")).as("no lock left behind")
				.noneMatch((key) -> Boolean.TRUE.equals(redis.hasKey(KEYS.lockKey(key)))));
	}

	@Test
	void aBusyLockInALaterSlotGivesBackTheLocksAlreadyTaken() throws Exception {
		LockHandle busy = this.fixture.service().tryAcquire("f", LockOptions.ofTtl(LONG)).orElseThrow();

		assertThat(this.locks.tryAcquireAll(List.of("a", "b", "c", "d", "e", "f"), LockOptions.ofTtl(LONG))).isEmpty();
		LettuceConnectionFactory connections = this.fixture.connect();
		StringRedisTemplate redis = new StringRedisTemplate(connections);
		assertThat(List.of("a", "b", "c", "d", "e")).as("no lock left behind")
			.noneMatch((key) -> Boolean.TRUE.equals(redis.hasKey(KEYS.lockKey(key))));
		assertThat(redis.hasKey(KEYS.lockKey("f"))).isTrue();
		busy.close();
	}

	@Test
	void aLockOnKeysOfInterleavedSlotsHoldsEachKeysOwnFencingToken() throws Exception {
		StringRedisTemplate redis = new StringRedisTemplate(this.fixture.connect());
		long ahead = counterAheadOf("b", redis);

		LockHandle lock = this.locks.tryAcquireAll(INTERLEAVED_KEYS, LockOptions.ofTtl(LONG)).orElseThrow();

		for (String key : INTERLEAVED_KEYS) {
			assertThat(lock.fencingToken(key)).as("the token of '%s' is its own counter's", key)
				.isEqualTo(Long.parseLong(redis.opsForValue().get(KEYS.fenceKey(key))));
		}
		assertThat(lock.fencingToken("b")).isGreaterThan(ahead);
		assertThat(this.locks.heldLocks()).allSatisfy((held) -> assertThat(held.fencingToken())
			.isEqualTo(Long.parseLong(redis.opsForValue().get(KEYS.fenceKey(held.key())))));
		lock.close();
	}

	@Test
	void theHolderOfALockOnInterleavedSlotsWritesEachKeysResourceWithThatKeysToken() throws Exception {
		StringRedisTemplate redis = new StringRedisTemplate(this.fixture.connect());
		counterAheadOf("b", redis);
		FencedValues seats = new RedisFencedValues(this.fixture.connect());
		try (LockHandle earlier = this.locks.tryAcquire("b", LockOptions.ofTtl(LONG)).orElseThrow()) {
			assertThat(seats.write("seat:b", "earlier", earlier.fencingToken())).isTrue();
		}

		try (LockHandle lock = this.locks.tryAcquireAll(INTERLEAVED_KEYS, LockOptions.ofTtl(LONG)).orElseThrow()) {
			for (String key : INTERLEAVED_KEYS) {
				assertThat(seats.write("seat:" + key, "later", lock.fencingToken(key)))
					.as("the later holder's write of '%s' is applied", key)
					.isTrue();
			}
		}
		assertThat(seats.read("seat:b")).isEqualTo("later");
	}

	/**
	 * Sets the fencing counter of {@code key} an hour ahead of the clock, as a node whose clock ran ahead
	 * leaves it, so that its tokens differ from those of keys in other slots; returns the counter.
	 */
	private static long counterAheadOf(String key, StringRedisTemplate redis) {
		assertThat(ClusterSlotHashUtil.calculateSlot(KEYS.lockKey(INTERLEAVED_KEYS.get(0))))
			.as("the first and last keys share a slot, the middle one lies in another")
			.isEqualTo(ClusterSlotHashUtil.calculateSlot(KEYS.lockKey(INTERLEAVED_KEYS.get(2))))
			.isNotEqualTo(ClusterSlotHashUtil.calculateSlot(KEYS.lockKey(INTERLEAVED_KEYS.get(1))));
		long ahead = TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1));
		redis.opsForValue().set(KEYS.fenceKey(key), Long.toString(ahead));
		return ahead;
	}

}
