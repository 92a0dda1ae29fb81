package dev.locksmith.redis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.redis.ReliabilityReport.Outcome;
import dev.locksmith.testing.FakeClock;
import dev.locksmith.testing.FaultyProxy;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fault suite's workload ({@link FencedCounterWorker} JVMs, refereed by a {@link Checker}) under
 * faults of the network and of the lock store's clock: each worker reaches the store through its own
 * {@link FaultyProxy}, and the store runs under libfaketime ({@link FakeClock}). Two probes measure
 * what the workload cannot show: how fast a waiter whose subscriber connection is blackholed gets a
 * released lock, and whether fencing tokens keep increasing when the server clock steps back. Every row
 * runs on the bundled Redis; on the system's, which hangs under libfaketime, only the two network rows
 * that cut a holder and partition the fleet, to keep the build short. The figures go to a section of
 * {@code docs/reliability.md} per version.
 */
@Tag("faults")
@ParameterizedClass(name = "{0}")
@EnumSource(RedisVersion.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("slow")
class ClockAndNetworkFaultTests {

	private static final int WORKERS = 3;

	/** Accepted writes that a row lets the workload make under its fault. */
	private static final int STEADY_WRITES = 20;

	private static final Duration TIMEOUT = Duration.ofMinutes(1);

	/** How long three worker JVMs may take to start and write steadily on a busy machine. */
	private static final Duration STARTUP = Duration.ofMinutes(3);

	private static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	private static final Duration FENCE_LIFETIME = ScriptArguments.FENCE_COUNTER_LIFETIME;

	private static final String NO_FAKETIME = "libfaketime is not installed (apt-get install faketime libfaketime;"
			+ " .ci/run installs it): the clock faults cannot run";

	private static final String BUNDLED_ONLY = "on the system's Redis only the blackholed holder and the partition"
			+ " run: its redis-server hangs under libfaketime, and the other network rows add nothing a version changes";

	/** The version of the lock store in this run, injected by JUnit. */
	@Parameter
	RedisVersion version;

	private final List<Process> workers = new ArrayList<>();

	private final List<FaultyProxy> proxies = new ArrayList<>();

	private final List<Outcome> outcomes = new ArrayList<>();

	private final List<String> probes = new ArrayList<>();

	private final List<String> waiterProbes = new ArrayList<>();

	private final List<String> latencyProbes = new ArrayList<>();

	private @Nullable FakeClock clock;

	private RedisServer store;

	private RedisServer checkerServer;

	private Checker checker;

	@BeforeParameterizedClassInvocation
	void start() throws Exception {
		this.checker = null; // the previous server's, until this one starts
		if (this.version == RedisVersion.BUNDLED && FakeClock.library().isPresent()) {
			this.clock = FakeClock.create();
			this.store = RedisServer.start(this.clock);
		}
		else {
			this.store = RedisServer.start(this.version);
		}
		this.checkerServer = RedisServer.start();
		this.checker = new Checker(this.checkerServer.port());
		for (int i = 0; i < WORKERS; i++) {
			FaultyProxy proxy = FaultyProxy.start(this.store.port());
			this.proxies.add(proxy);
			this.workers.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
					System.getProperty("java.class.path"), FencedCounterWorker.class.getName(),
					Integer.toString(proxy.port()), Integer.toString(this.checkerServer.port()))
				.redirectErrorStream(true)
				.redirectOutput(Files.createTempFile("fenced-worker-", ".log").toFile())
				.start());
		}
		await().atMost(STARTUP).until(() -> accepted() >= STEADY_WRITES);
	}

	@AfterParameterizedClassInvocation
	void stop() throws Exception {
		if (this.checker == null) {
			return; // the start was skipped: this server is not on this machine
		}
		try {
			this.checker.stopWorkers();
			for (Process worker : this.workers) {
				assertThat(worker.waitFor(1, TimeUnit.MINUTES)).as("a worker stopped when asked").isTrue();
				assertThat(worker.exitValue()).isZero();
			}
			Map<String, Long> end = this.checker.snapshot();
			assertThat(end.getOrDefault("unexpected", 0L)).as("failures other than busy or unavailable").isZero();
			assertThat(end.get("sum")).as("no lost update in the whole run").isEqualTo(end.get("accepted"));
			if (this.version == RedisVersion.BUNDLED) {
				ReliabilityReport.writeSection("clock-and-network", report(end));
			}
			else if (this.version == RedisVersion.SYSTEM) {
				ReliabilityReport.writeSection("clock-and-network-system-redis", otherServerReport(end));
			}
			else {
				ReliabilityReport.writeSection("clock-and-network-valkey", otherServerReport(end));
			}
		}
		finally {
			this.workers.forEach(Process::destroyForcibly);
			this.proxies.forEach(FaultyProxy::close);
			this.checker.close();
			this.checkerServer.close();
			this.store.close();
			if (this.clock != null) {
				this.clock.close();
				this.clock = null;
			}
			// one instance serves both versions (PER_CLASS): the next starts from nothing
			List.of(this.workers, this.proxies, this.outcomes, this.probes, this.waiterProbes, this.latencyProbes)
				.forEach(List::clear);
		}
	}

	@Test
	@Order(1)
	void networkFaultsLoseNoUpdate() throws Exception {
		assumeTrue(this.version == RedisVersion.BUNDLED, BUNDLED_ONLY);
		run("none (baseline, through the proxies)", false, () -> {
		});
		run("20 ms ± 10 ms of latency each way on every link; throughput, p99 and lost updates of the benchmark"
				+ " scenarios under it: [benchmarks](benchmarks.md#through-20-ms--10-ms-of-network-latency)", false,
				() -> this.proxies.forEach((proxy) -> proxy.delay(Duration.ofMillis(20), Duration.ofMillis(10))));
		run("bandwidth of every link limited to 16 KiB/s each way", true,
				() -> this.proxies.forEach((proxy) -> {
					proxy.bandwidth(FaultyProxy.Direction.UPSTREAM, 16 * 1024);
					proxy.bandwidth(FaultyProxy.Direction.DOWNSTREAM, 16 * 1024);
				}));
		run("the subscriber connections alone blackholed (waiters hear no release)", false,
				() -> this.proxies.forEach((proxy) -> proxy.connections()
					.stream()
					.filter(FaultyProxy.Connection::subscriber)
					.forEach(FaultyProxy.Connection::blackhole)));
		run("the subscriber connections closed on the client's side only (Redis keeps its end)", false,
				() -> this.proxies.forEach((proxy) -> proxy.connections()
					.stream()
					.filter(FaultyProxy.Connection::subscriber)
					.forEach(FaultyProxy.Connection::closeClientSide)));
		awaitSubscriberProbe();
		halfOpenProbe();
		latencyProbe();
	}

	@Test
	@Order(2)
	void aBlackholedHolderAndAPartitionLoseNoUpdate() throws Exception {
		Process holder = this.workers.get(0);
		FaultyProxy holdersLink = this.proxies.get(0);
		Outcome blackholedHolder = run(
				"one worker's link blackholed (no close) while it is inside a critical section, until its lease ended and another worker took the lock",
				true, () -> holdPastTheLease(holder, holdersLink::blackhole, holdersLink::heal));
		assertThat(blackholedHolder.rejected()).as("the stale holder's late write was fenced").isPositive();
		assertThat(blackholedHolder.lostLeasesSeen()).as("the stale holder knew it had lost its lease").isPositive();
		run("every link blackholed until every lease ended in Redis, then healed (recovery: from the heal)", true,
				() -> {
					this.proxies.forEach(FaultyProxy::blackhole);
					await().atMost(TIMEOUT)
						.alias("every lease ended while no worker reached Redis")
						.until(() -> Checker.KEYS.stream()
							.noneMatch((key) -> "1".equals(this.store.command("EXISTS", KEYS.lockKey(key)))));
					this.proxies.forEach(FaultyProxy::heal);
				});
	}

	@Test
	@Order(3)
	void clockFaultsOnTheStoreLoseNoUpdate() throws Exception {
		FakeClock clock = requireClock();
		Process holder = this.workers.get(1);
		Outcome jumped = run("server clock jumps 3 s forward (past the 2 s lease) while a worker is inside a critical section",
				true, () -> holdPastTheLease(holder, () -> clock.step(Duration.ofSeconds(3)), () -> {
				}));
		assertThat(jumped.rejected()).as("the stale holder's late write was fenced").isPositive();
		Outcome steppedBack = run("server clock steps 5 s back", false, () -> clock.step(Duration.ofSeconds(-5)));
		assertThat(steppedBack.rejected()).as("no token went back: nothing was fenced").isZero();
		run("server clock runs 1.5× fast (leases end after 2/3 of their time)", true, () -> clock.drift(1.5));
		run("server clock runs at 0.5× (leases last twice their time)", false, () -> clock.drift(0.5));
	}

	@Test
	@Order(4)
	void fencingTokensUnderServerClockSteps() throws Exception {
		requireClock();
		Duration lifetime = FENCE_LIFETIME;
		try (FakeClock clock = FakeClock.create()) {
			RedisServer server = RedisServer.start(clock);
			try {
				assertThat(tokens(server, clock, "counter alive; clock 5 s back", Duration.ZERO, Duration.ofSeconds(5)))
					.as("tokens increase").isTrue();
				assertThat(tokens(server, clock, "counter alive; clock 2 h back (more than the counter's lifetime)",
						Duration.ZERO, Duration.ofHours(2)))
					.as("the counter's expiry is an absolute server time: it outlives a step back").isTrue();
				assertThat(tokens(server, clock,
						"clock 1 h 5 s forward (the counter expires), then 1 h 2 s back: lands 3 s after the last grant",
						lifetime.plusSeconds(5), lifetime.plusSeconds(2)))
					.as("a step back of more than the lifetime that lands after the last token").isTrue();
				assertThat(tokens(server, clock,
						"clock 1 h 1 s forward (the counter expires), then 1 h 11 s back: lands 10 s before the last grant",
						lifetime.plusSeconds(1), lifetime.plusSeconds(11)))
					.as("tokens go back once the clock reads before the last token without its counter").isFalse();
				assertThat(restartedEmptyThenSteppedBack(server, clock))
					.as("a counter lost with the data needs only a step back longer than the time since the grant")
					.isFalse();
			}
			finally {
				server.close();
			}
		}
	}

	/**
	 * Takes a token of a new key, steps the clock {@code forward} (and checks that the counter expired
	 * when that is not zero), then {@code back}, takes another token and records the probe.
	 */
	private boolean tokens(RedisServer server, FakeClock clock, String scenario, Duration forward, Duration back)
			throws Exception {
		String key = "probe:" + this.probes.size();
		try (WorkerLocks locks = new WorkerLocks(server.port(), Duration.ofSeconds(2))) {
			long before = token(locks, key);
			if (!forward.isZero()) {
				clock.step(forward);
				assertThat(server.command("EXISTS", KEYS.fenceKey(key))).as("the counter expired").isEqualTo("0");
			}
			clock.step(back.negated());
			long after = token(locks, key);
			return probe(scenario, before, after);
		}
	}

	private boolean restartedEmptyThenSteppedBack(RedisServer server, FakeClock clock) throws Exception {
		String key = "probe:restart";
		long before;
		long grantedAt;
		try (WorkerLocks locks = new WorkerLocks(server.port(), Duration.ofSeconds(2))) {
			before = token(locks, key);
			grantedAt = System.nanoTime();
		}
		server.restart();
		// back by 10 s more than has passed since the grant, however long the restart took on a busy machine
		clock.step(Duration.ofNanos(System.nanoTime() - grantedAt).plusSeconds(10).negated());
		try (WorkerLocks locks = new WorkerLocks(server.port(), Duration.ofSeconds(2))) {
			return probe("Redis restarted empty (no persistence) right after a grant, then clock stepped back 10 s "
					+ "more than the time since the grant", before, token(locks, key));
		}
	}

	private boolean probe(String scenario, long before, long after) {
		boolean increasing = after > before;
		this.probes.add("| " + scenario + " | " + before + " | " + after + " | "
				+ (increasing ? "yes (+" + (after - before) + " µs)" : "**no** (" + (after - before) + " µs)") + " |");
		return increasing;
	}

	private static long token(WorkerLocks locks, String key) throws Exception {
		try (LockHandle lock = locks.locks.acquire(key, LockOptions.ofTtl(Duration.ofSeconds(10)))) {
			return lock.fencingToken();
		}
	}

	private FakeClock requireClock() {
		assumeTrue(this.version == RedisVersion.BUNDLED, BUNDLED_ONLY);
		if (this.clock == null) {
			if ("true".equals(System.getenv("CI"))) {
				fail(NO_FAKETIME + ", and .ci/run should have installed it");
			}
			assumeTrue(false, NO_FAKETIME);
		}
		return this.clock;
	}

	/**
	 * Uncontended lock cycles (acquire, release) of one thread, straight to the store and through a
	 * proxy with 20 ms ± 10 ms each way: throughput, median and p99.
	 */
	private void latencyProbe() throws Exception {
		try (FaultyProxy link = FaultyProxy.start(this.store.port());
				WorkerLocks direct = new WorkerLocks(this.store.port(), Duration.ofSeconds(2));
				WorkerLocks delayed = new WorkerLocks(link.port(), Duration.ofSeconds(2))) {
			link.delay(Duration.ofMillis(20), Duration.ofMillis(10));
			lockCycles("straight to the store", direct);
			long[] slow = lockCycles("through 20 ms ± 10 ms each way", delayed);
			assertThat(slow[slow.length / 2]).as("a cycle is two round trips of at least 20 ms each way")
				.isGreaterThanOrEqualTo(Duration.ofMillis(40).toNanos());
		}
	}

	private long[] lockCycles(String link, WorkerLocks locks) throws Exception {
		int cycles = 40;
		for (int i = 0; i < 3; i++) {
			token(locks, "probe:latency");
		}
		long[] nanos = new long[cycles];
		long start = System.nanoTime();
		for (int i = 0; i < cycles; i++) {
			long cycle = System.nanoTime();
			token(locks, "probe:latency");
			nanos[i] = System.nanoTime() - cycle;
		}
		double perSecond = cycles * 1e9 / (System.nanoTime() - start);
		java.util.Arrays.sort(nanos);
		this.latencyProbes.add(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f ms | %.1f ms |", link, cycles,
				perSecond, nanos[cycles / 2] / 1e6, nanos[(int) Math.ceil(cycles * 0.99) - 1] / 1e6));
		return nanos;
	}

	/**
	 * A lock connection whose server side is gone while its client hears nothing (a half-open
	 * connection: state lost in a NAT or firewall, a host gone without a reset): every call must fail
	 * closed; the probe records whether the client reconnects by itself, then closes the client's side
	 * too and measures the recovery.
	 */
	private void halfOpenProbe() throws Exception {
		try (FaultyProxy link = FaultyProxy.start(this.store.port());
				WorkerLocks locks = new WorkerLocks(link.port(), Duration.ofMillis(500))) {
			token(locks, "probe:half-open");
			link.connections().forEach(FaultyProxy.Connection::closeServerSide);
			int calls = 6;
			int failedClosed = 0;
			int granted = 0;
			long halfOpen = System.nanoTime();
			for (int i = 0; i < calls; i++) {
				try {
					token(locks, "probe:half-open");
					granted++;
				}
				catch (LockUnavailableException ex) {
					failedClosed++;
				}
			}
			long cut = System.nanoTime();
			Duration calling = Duration.ofNanos(cut - halfOpen);
			link.connections().forEach(FaultyProxy.Connection::closeClientSide);
			await().atMost(TIMEOUT).ignoreExceptions().until(() -> token(locks, "probe:half-open") > 0);
			Duration recovery = Duration.ofNanos(System.nanoTime() - cut);
			this.waiterProbes.add("| a lock connection half-open (its server side closed, the client hears nothing),"
					+ " then closed | " + failedClosed + " of " + calls + " lock calls failed closed in "
					+ calling.toMillis() + " ms and " + granted + " were granted: "
					+ ((granted == 0) ? "no reconnect until the connection was closed" : "the client reconnected by itself")
					+ "; recovery " + recovery.toMillis() + " ms after the close |");
			assertThat(failedClosed + granted).isEqualTo(calls);
			if (granted > 0) {
				assertThat(link.connections()).as("a granted call went over a new connection").hasSizeGreaterThan(1);
			}
		}
	}

	/**
	 * A waiter whose subscriber connection is blackholed hears no release: it must get the lock by a
	 * re-check, within the re-check interval (1 s) after the release.
	 */
	private void awaitSubscriberProbe() throws Exception {
		String key = "probe:waiter";
		try (FaultyProxy link = FaultyProxy.start(this.store.port());
				WorkerLocks holder = new WorkerLocks(this.store.port(), Duration.ofSeconds(2));
				WorkerLocks waiter = new WorkerLocks(link.port(), Duration.ofSeconds(2))) {
			try {
				LockHandle held = holder.locks.acquire(key, LockOptions.ofTtl(Duration.ofSeconds(20)));
				CompletableFuture<Long> granted = CompletableFuture.supplyAsync(() -> {
					try (LockHandle lock = waiter.locks.acquire(key,
							LockOptions.ofTtl(Duration.ofSeconds(5)).withWaitTime(Duration.ofSeconds(30)))) {
						return System.nanoTime();
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				});
				await().atMost(TIMEOUT)
					.alias("the waiter is queued and has its subscriber connection")
					.until(() -> !"0".equals(this.store.command("LLEN", KEYS.queueKey(key)))
							&& link.connections().stream().anyMatch(FaultyProxy.Connection::subscriber));
				link.connections().stream().filter(FaultyProxy.Connection::subscriber).forEach(FaultyProxy.Connection::blackhole);
				long released = System.nanoTime();
				held.close();
				Duration waited = Duration.ofNanos(granted.get(1, TimeUnit.MINUTES) - released);
				this.waiterProbes.add("| a waiter whose subscriber connection is blackholed gets a released lock (bound: the"
						+ " 1 s re-check interval) | after " + waited.toMillis() + " ms |");
				assertThat(waited).as("the waiter got the lock by its re-check").isLessThan(Duration.ofSeconds(2));
			}
			finally {
				link.heal();
			}
		}
	}

	/**
	 * Keeps {@code holder} inside its next critical section, between its read and its write, injects
	 * {@code fault}, and lets it write once another worker took the lock and read with a newer token.
	 */
	private void holdPastTheLease(Process holder, Injection fault, Runnable heal) throws Exception {
		this.checker.holdInside(holder.pid());
		String key = await().atMost(TIMEOUT).until(() -> this.checker.insideOf(holder.pid()), Objects::nonNull);
		String lease = this.store.command("GET", KEYS.lockKey(key));
		fault.run();
		await().atMost(TIMEOUT)
			.alias("another worker took the lock")
			.until(() -> !Objects.equals(this.store.command("GET", KEYS.lockKey(key)), lease)
					&& !this.store.command("GET", KEYS.lockKey(key)).isEmpty());
		long seen = this.checker.seen(key);
		await().atMost(TIMEOUT).alias("a newer token read the counter").until(() -> this.checker.seen(key) > seen);
		long rejected = rejected();
		this.checker.letGoOn(holder.pid());
		await().atMost(TIMEOUT).alias("the late write was fenced").until(() -> rejected() > rejected);
		heal.run();
	}

	/** Injects the fault, measures the time to the next accepted write, lets the workload run on under it, then heals. */
	private Outcome run(String fault, boolean overlapsAllowed, Injection inject) throws Exception {
		Map<String, Long> before = this.checker.snapshot();
		long start = System.nanoTime();
		inject.run();
		long injected = System.nanoTime();
		long acceptedThen = accepted();
		await().atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(5))
			.alias("an accepted write after '" + fault + "'")
			.until(() -> accepted() > acceptedThen);
		Duration recovery = Duration.ofNanos(System.nanoTime() - injected);
		awaitSteadyWrites();
		heal();
		Outcome outcome = Outcome.between(fault, overlapsAllowed, before, this.checker.snapshot(), recovery,
				Duration.ofNanos(System.nanoTime() - start));
		this.outcomes.add(outcome);
		assertThat(outcome.lostUpdates()).as("lost updates during '%s'", fault).isZero();
		if (!overlapsAllowed) {
			assertThat(outcome.overlaps()).as("overlaps during '%s'", fault).isZero();
		}
		return outcome;
	}

	private void heal() {
		this.proxies.forEach(FaultyProxy::heal);
		if (this.clock != null) {
			this.clock.stopDrift();
		}
	}

	private void awaitSteadyWrites() {
		long start = accepted();
		await().atMost(TIMEOUT).until(() -> accepted() >= start + STEADY_WRITES);
	}

	private long accepted() {
		return this.checker.snapshot().getOrDefault("accepted", 0L);
	}

	private long rejected() {
		return this.checker.snapshot().getOrDefault("rejected", 0L);
	}

	private String report(Map<String, Long> end) {
		StringBuilder report = new StringBuilder("""
				## Clock and network faults

				Written by `ClockAndNetworkFaultTests`, which `./mvnw verify` runs; refreshed with
				`./mvnw -pl lock-spring-boot-autoconfigure -am verify -Dtest=ClockAndNetworkFaultTests -Dsurefire.failIfNoSpecifiedTests=false -Dreliability.publish=true`.

				The same workload and checker as above, with each worker JVM reaching the lock store through its
				own TCP proxy (`FaultyProxy` in `locksmith-embedded-redis`: delay and jitter per direction,
				bandwidth, blackhole without closing, closing one side, faults per connection), and the lock store
				running under libfaketime (`FakeClock`: Debian's `libfaketime` preloaded, its offset read from a
				file on every call, so the running server's clock jumps). Only the wall clock is faked
				(`FAKETIME_DONT_FAKE_MONOTONIC=1`), as an NTP step moves it: Redis takes `TIME` (the fencing
				tokens' floor) and key expiry (leases, fencing counters) from the wall clock, and its timers from
				`CLOCK_MONOTONIC`, which libfaketime would otherwise move too (not what a clock step does; a
				monotonic clock stepped back stalls Redis's timers). A different clock rate is emulated by moving
				the offset every 10 ms. Each row runs under its fault until 20 more writes were accepted (a
				blackhole or a clock jump lasts until its goal was reached), then the fault is taken away.
				Probes in the test JVM follow the table: single connections cut in ways the workload cannot
				show, uncontended lock cycles through the delay, and fencing tokens across clock steps.
				Accepted writes/s follow the machine's load more than the fault; the lock cycles compare latency
				directly.

				""");
		report.append(runAndTable(end)).append('\n');
		report.append("| connection probe | result |\n|---|---|\n");
		this.waiterProbes.forEach((row) -> report.append(row).append('\n'));
		report.append("""

				A half-open connection is safe (every call fails closed) but not live: the client neither
				reconnects nor notices, because nothing closes the connection. In production that lasts until
				TCP gives up retransmitting (`tcp_retries2`, about 15 minutes on Linux), unless the client sets
				TCP keepalive or `TCP_USER_TIMEOUT`, or drops a connection after repeated timeouts.
				""");
		report.append("\nUncontended lock cycles (acquire and release, one thread, in the test JVM) against the same"
				+ " store:\n\n| link | cycles | cycles/s | median | p99 |\n|---|---|---|---|---|\n");
		this.latencyProbes.forEach((row) -> report.append(row).append('\n'));
		report.append("""

				Fencing tokens when the server clock steps back (a probe on its own server: one grant, the clock
				moved, one more grant of the same key; a fencing counter expires 1 h of server time after its last
				grant):

				| scenario | token before | token after | strictly increasing? |
				|---|---|---|---|
				""");
		this.probes.forEach((row) -> report.append(row).append('\n'));
		report.append("""

				So the exact limit: a token is `max(last token + 1, server clock in µs)`, and the counter keeping
				the last token expires at an absolute server time, 1 h after the last grant. A step back while the
				counter lives only makes it live longer (second row). Tokens stop increasing only when the
				counter is gone and the server clock then reads at or before the last token (equal tokens are as
				bad as lower ones: a resource that refuses only lower tokens lets both writers through). With an
				expired counter that takes a step back of at least its lifetime (1 h) plus however far the clock
				ran on after the counter expired, so that it lands at or before the last grant (third and
				fourth rows: more than the lifetime is not enough when it lands after the last grant); with a
				counter lost with the data (a restart without persistence, or a failover to a replica that had
				not received it and whose clock is behind), a step back longer than the time since the last grant
				is enough (last row).

				The clock faults run on the bundled Redis 6.2 only, not on the system's 7.x: Debian's
				`redis-server` 7.0.15 links the shared `libjemalloc.so.2`, whose `malloc` replaces glibc's in the
				whole process; libfaketime 0.9.10 calls `dlsym` while it initialises, `dlsym` allocates, and
				jemalloc's first allocation reads `clock_gettime`, which libfaketime intercepts before it is ready
				("Cannot recover from unexpected recursive calls to clock_gettime()"): the server hangs at start.
				The bundled binary builds jemalloc in under the `je_` prefix and leaves `malloc` to glibc, so it runs
				under libfaketime. The network rows need no clock fault: the blackholed holder and the partition
				run on the system's 7.x too (next section, on a server of that version); the other rows and the
				probes run on 6.2 only, to keep the build short. The fault suite above (`FaultSuiteTests`) runs on
				both versions. Under its
				default settings libfaketime also moves `CLOCK_MONOTONIC`, which an NTP
				step never does, and scales `sleep` and poll timeouts by the clock rate: the suite fakes the wall
				clock only and emulates a rate by steps.
				""");
		return report.toString();
	}

	/** The line on the blackholed holder and the partition on the system's Redis, and their table. */
	private String otherServerReport(Map<String, Long> end) {
		String server = (this.version == RedisVersion.SYSTEM) ? "the system's Redis" : this.version.toString();
		return "## The blackholed holder and the partition on " + server + "\n\n"
				+ "The network rows that cut a holder off and partition the fleet, as above, on " + server
				+ " (the other rows run on the bundled Redis only: see the end of the first section).\n\n"
				+ runAndTable(end);
	}

	/** The run's line (date, cores, version, load) and its table of faults. */
	private String runAndTable(Map<String, Long> end) {
		StringBuilder report = new StringBuilder();
		report.append("Run of ").append(LocalDate.now()).append(" on ")
			.append(Runtime.getRuntime().availableProcessors()).append(" cores, Redis ")
			.append(ReliabilityReport.redisVersion(this.store.command("INFO", "server")))
			.append((this.clock != null) ? ", under libfaketime"
					: (this.version == RedisVersion.BUNDLED) ? ", without libfaketime (no clock rows)" : "")
			.append(", load average ").append(loadAverage()).append(".\n\n");
		report.append("| fault | critical sections | overlaps (allowed by the model?) | stale reads and writes rejected"
				+ " | lost updates | lock calls that failed closed | recovery | accepted writes/s"
				+ " | stale holders that saw their lost lease before writing |\n|---|---|---|---|---|---|---|---|---|\n");
		for (Outcome outcome : this.outcomes) {
			report.append(ReliabilityReport.row(outcome))
				.append(String.format(Locale.ROOT, " %.1f | %d |%n", outcome.writesPerSecond(), outcome.lostLeasesSeen()));
		}
		report.append("| **whole run** | ").append(end.getOrDefault("sections", 0L)).append(" | ")
			.append(end.getOrDefault("overlaps", 0L)).append(" | ").append(end.getOrDefault("rejected", 0L))
			.append(" | ").append(end.get("accepted") - end.get("sum")).append(" | ")
			.append(end.getOrDefault("unavailable", 0L)).append(" | | | |\n");
		return report.toString();
	}

	/** The one-minute load average at the end of the run, where Linux tells it. */
	private static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (java.io.IOException | RuntimeException ex) {
			return "unknown";
		}
	}

	@FunctionalInterface
	private interface Injection {

		void run() throws Exception;

	}

}
