package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LostLeaseRecorder;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Read locks and permits as Redis keeps them, each engine standing for a process of its own: written once,
 * run on one {@code redis-server} ({@link ReadWriteLockTests}) and on a three-master Redis Cluster
 * ({@link RedisClusterReadWriteLockTests}), where each key is read on the master that serves its slot. The
 * store-independent rules are in {@code LockStoreContractTests} of {@code locksmith-test}.
 */
abstract class SharedLockTests {

	private static final LockOptions WRITE = LockOptions.ofTtl(Duration.ofSeconds(30));

	private static final LockOptions READ = WRITE.withMode(LockMode.READ);

	private static final Duration WAIT = Duration.ofSeconds(20);

	/**
	 * How long a writer waits at most under readers holding 50 ms each: their hold and a hand-off, about
	 * 60 ms on a quiet machine, with room for a loaded one (1 s was seen with three builds on two cores). A
	 * writer that readers barged past would wait as long as the stream goes on, past its 5 s.
	 */
	private static final Duration WRITER_BOUND = Duration.ofSeconds(2);

	/** The Redis on which {@link ModesLoad}'s checker counts overlaps. */
	@RegisterExtension
	static final RedisServerExtension checkerServer = new RedisServerExtension();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private LockEngines engines;

	/** {@code count} engines on the store under test, emptied before each test. */
	abstract LockEngines startEngines(int count, Duration recheckInterval);

	/** The Redis server that keeps the keys of the lock {@code key}. */
	abstract RedisServer nodeServing(String key);

	@BeforeEach
	void startEngines() {
		this.engines = startEngines(4, Duration.ofMillis(200));
	}

	@AfterEach
	void stopEngines() {
		this.threads.shutdownNow();
		this.engines.close();
	}

	@Test
	void readersAreKeptAsTheShareWithEachOwnLeaseAndAWriterAsItsOwnerToken() throws Exception {
		LockHandle first = engine(0).tryAcquire("doc", READ).orElseThrow();
		LockHandle second = engine(1).tryAcquire("doc", READ.withTtl(Duration.ofSeconds(60))).orElseThrow();

		assertThat(nodeServing("doc").command("GET", "lock:{doc}")).isEqualTo("@read");
		assertThat(nodeServing("doc").command("ZCARD", "lock:holders:{doc}")).isEqualTo("2");
		assertThat(Long.parseLong(nodeServing("doc").command("PTTL", "lock:{doc}"))).isGreaterThan(30_000);
		first.close();
		second.close();
		assertThat(nodeServing("doc").command("EXISTS", "lock:{doc}", "lock:holders:{doc}")).isEqualTo("0");
		try (LockHandle writer = engine(2).tryAcquire("doc", WRITE).orElseThrow()) {
			assertThat(nodeServing("doc").command("GET", "lock:{doc}")).startsWith("p2:");
		}
	}

	/**
	 * Readers of three engines, one arriving every 10 ms and each holding 50 ms, keep the key read-locked
	 * without a gap; a writer queues, readers arriving after it queue behind it, so it waits only for the
	 * readers already holding (50 ms) and a hand-off. {@link #WRITER_BOUND} leaves room for a loaded
	 * machine; with readers barging past it, it would wait until the stream stops.
	 */
	@Test
	void aWriterIsGrantedWithinItsBoundUnderAContinuousStreamOfReaders() throws Exception {
		ScheduledExecutorService arrivals = Executors.newScheduledThreadPool(3);
		AtomicInteger readsDone = new AtomicInteger();
		List<Duration> writerWaits = new ArrayList<>();
		try {
			for (int e = 0; e < 3; e++) {
				DefaultLockService readers = engine(e);
				arrivals.scheduleAtFixedRate(() -> this.threads.submit(() -> {
					readers.runLocked("doc", READ.withWaitTime(WAIT),
							() -> LockSupport.parkNanos(Duration.ofMillis(50).toNanos()));
					return readsDone.incrementAndGet();
				}), e * 10L, 30, TimeUnit.MILLISECONDS);
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> readsDone.get() >= 20);
			for (int round = 0; round < 5; round++) {
				await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
					.until(() -> "@read".equals(nodeServing("doc").command("GET", "lock:{doc}")));
				long askedAt = System.nanoTime();
				Optional<LockHandle> writer = engine(3).tryAcquire("doc", WRITE.withWaitTime(Duration.ofSeconds(5)));
				writerWaits.add(Duration.ofNanos(System.nanoTime() - askedAt));
				assertThat(writer).as("writer granted under the readers, after %s", writerWaits).isPresent();
				writer.get().close();
				int readsBefore = readsDone.get();
				await().atMost(Duration.ofSeconds(5)).until(() -> readsDone.get() >= readsBefore + 5);
			}
		}
		finally {
			arrivals.shutdownNow();
		}
		assertThat(writerWaits).as("writer waits").allSatisfy((wait) -> assertThat(wait).isLessThan(WRITER_BOUND));
	}

	@Test
	void aCrashedPermitHolderFreesItsPermitAtItsOwnLeaseWhileAnotherHolderKeepsRenewing() throws Exception {
		LockOptions permits = LockOptions.ofTtl(Duration.ofMillis(600)).withPermits(2);
		// the crashed holder's lease starts when Redis grants it, after this: the third waits at least 600ms
		// less the request's way to Redis, however long the second grant takes on a loaded machine
		long askedAt = System.nanoTime();
		LockHandle crashed = engine(0).tryAcquire("pdf", permits.withRenew(false)).orElseThrow();
		LockHandle renewing = engine(1).tryAcquire("pdf", permits).orElseThrow();

		Optional<LockHandle> third = engine(2).tryAcquire("pdf", permits.withWaitTime(WAIT));

		assertThat(third).isPresent();
		assertThat(Duration.ofNanos(System.nanoTime() - askedAt)).isGreaterThan(Duration.ofMillis(500));
		assertThat(crashed.isHeld()).isFalse();
		assertThat(renewing.isHeld()).isTrue();
		assertThat(nodeServing("pdf").command("ZCARD", "lock:holders:{pdf}")).isEqualTo("2");
		assertThat(engine(3).tryAcquire("pdf", permits)).isEmpty();
		renewing.close();
		third.get().close();
	}

	@Test
	void aShareThatItsRenewalFindsGoneIsReportedLostWhileTheOtherReaderKeepsItsOwn() throws Exception {
		LostLeaseRecorder lost = LostLeaseRecorder.listeningTo(engine(0));
		LockOptions shortRead = READ.withTtl(Duration.ofMillis(900));
		LockHandle removed = engine(0).tryAcquire("doc", shortRead).orElseThrow();
		LockHandle kept = engine(1).tryAcquire("doc", shortRead).orElseThrow();

		nodeServing("doc").command("EVAL", "for _, holder in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do "
				+ "if string.find(holder, ARGV[1], 1, true) == 1 then redis.call('ZREM', KEYS[1], holder) end end",
				"1", "lock:holders:{doc}", "@read/p0:");

		await().atMost(Duration.ofSeconds(5)).until(() -> !removed.isHeld());
		// Events reach listeners on the dispatcher's thread, after the handle turned lost.
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(lost.events()).singleElement()
				.satisfies((event) -> assertThat(event.key()).isEqualTo("doc")));
		await().during(Duration.ofMillis(1200)).atMost(Duration.ofSeconds(5)).until(kept::isHeld);
		assertThat(nodeServing("doc").command("ZCARD", "lock:holders:{doc}")).isEqualTo("1");
		kept.close();
	}

	@Test
	void aReaderRefusedInTheMillisecondTheLastShareEndedHandsTheLockToTheWriterAhead() throws Exception {
		// The lock's key lives on for its last share's lease, so a script can find the share ended while the
		// key is still there; a writer waits ahead of the reader.
		nodeServing("edge").command("EVAL", """
				local time = redis.call('TIME')
				local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
				redis.call('SET', KEYS[1], '@read', 'PX', 60000)
				redis.call('ZADD', KEYS[2], now - 10, '@read/ended')
				redis.call('PEXPIRE', KEYS[2], 60000)
				redis.call('RPUSH', KEYS[3], 'writer')
				redis.call('HSET', KEYS[4], 'writer', now + 60000)
				redis.call('PEXPIRE', KEYS[3], 60000)
				redis.call('PEXPIRE', KEYS[4], 60000)""", "4", "lock:{edge}", "lock:holders:{edge}", "lock:queue:{edge}",
				"lock:deadlines:{edge}");

		assertThat(engine(0).tryAcquire("edge", READ)).isEmpty();
		assertThat(nodeServing("edge").command("GET", "lock:{edge}")).as("handed to the writer").isEqualTo("writer");
		assertThat(nodeServing("edge").command("EXISTS", "lock:holders:{edge}")).isEqualTo("0");
	}

	@Test
	void atMostThePermitCountHoldsAKeyAtOnceUnderContention() throws Exception {
		LockOptions permits = LockOptions.ofTtl(Duration.ofSeconds(5)).withPermits(3).withWaitTime(WAIT);
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		List<CompletableFuture<Void>> workers = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			DefaultLockService engine = engine(i % 4);
			workers.add(CompletableFuture.runAsync(() -> {
				for (int round = 0; round < 10; round++) {
					engine.runLocked("pdf", permits, () -> {
						most.accumulateAndGet(inside.incrementAndGet(), Math::max);
						LockSupport.parkNanos(Duration.ofMillis(3).toNanos());
						inside.decrementAndGet();
					});
				}
			}, this.threads));
		}
		CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

		assertThat(most.get()).isBetween(2, 3);
		assertThat(nodeServing("pdf").command("EXISTS", "lock:{pdf}")).isEqualTo("0");
	}

	/**
	 * The {@link ModesLoad} of three engines at once for 3 s, a writer, readers and permit holders in each:
	 * the checker counts no writer with anyone and never more than the permits, and once the load stops
	 * neither key is left in the store and a fourth engine takes both at once.
	 */
	@Test
	void writersExcludeEveryoneAndPermitHoldersNeverExceedTheirCountUnderAMixedLoad() throws Exception {
		LettuceConnectionFactory checkerConnections = checkerServer.server().connectionFactory();
		try {
			StringRedisTemplate checker = new StringRedisTemplate(checkerConnections);
			List<CompletableFuture<Void>> loads = new ArrayList<>();
			for (int e = 0; e < 3; e++) {
				ModesLoad.warmUp(engine(e), checker);
			}
			long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
			for (int e = 0; e < 3; e++) {
				loads.add(ModesLoad.run(engine(e), checker, until, this.threads));
			}
			CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		}
		finally {
			checkerConnections.destroy();
		}

		ModesLoad.assertModesKept(checkerServer.server());
		for (String key : List.of(ModesLoad.READ_KEY, ModesLoad.PERMITS_KEY)) {
			assertThat(nodeServing(key).command("EXISTS", LockEngines.KEYS.lockKey(key))).as("%s left", key).isEqualTo("0");
			try (LockHandle writer = engine(3).tryAcquire(key, WRITE).orElseThrow()) {
				assertThat(nodeServing(key).command("GET", LockEngines.KEYS.lockKey(key))).startsWith("p3:");
			}
		}
	}

	private DefaultLockService engine(int index) {
		return this.engines.engine(index);
	}

}
