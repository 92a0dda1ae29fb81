package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.locksmith.redis.FaultPhases.Fault;
import dev.locksmith.redis.ReliabilityReport.Outcome;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three worker JVMs do fenced read-modify-writes while the lock store, a {@code redis-server} of each
 * tested version, suffers one fault after the other; a checker on a Redis that is never faulted counts
 * critical sections, overlaps and lost updates. The figures are written to {@code docs/reliability.md}.
 */
@Tag("faults")
@ParameterizedClass(name = "{0}")
@EnumSource(RedisVersion.class)
@Tag("slow")
class FaultSuiteTests {

	private static final int WORKERS = 3;

	private static final Duration PAST_THE_TTL = FencedCounterWorker.TTL.plusSeconds(1);

	private static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	/** The version of the lock store in this run, injected by JUnit. */
	@Parameter
	RedisVersion version;

	private final List<Process> workers = new ArrayList<>();

	private RedisServer store;

	private RedisServer checkerServer;

	private Checker checker;

	private FaultPhases phases;

	@BeforeEach
	void start() throws Exception {
		this.store = RedisServer.start(this.version);
		this.checkerServer = RedisServer.start();
		this.checker = new Checker(this.checkerServer.port());
		this.phases = new FaultPhases(this.checker);
		this.workers.addAll(FaultPhases.startWorkers(WORKERS, FencedCounterWorker.class,
				Integer.toString(this.store.port()), Integer.toString(this.checkerServer.port())));
	}

	@AfterEach
	void stop() {
		if (this.checker == null) {
			return; // the start was skipped: this server is not on this machine
		}
		this.workers.forEach(Process::destroyForcibly);
		this.checker.close();
		this.checkerServer.close();
		this.store.close();
	}

	@Test
	void fencedWorkLosesNoUpdateAndRecoversAfterEveryFault() throws Exception {
		List<Outcome> outcomes = this.phases.run(faults(), this.workers);
		ReliabilityReport.write(this.version, outcomes, this.phases.check(outcomes), this.store.command("INFO", "server"));
	}

	private List<Fault> faults() {
		Process holder = this.workers.get(0);
		return List.of(new Fault("none (baseline)", false, this.phases::awaitSteadyWrites),
				new Fault("a worker JVM frozen (SIGSTOP) inside a critical section, past its lease", true, () -> {
					this.checker.holdInside(holder.pid());
					String key = await().atMost(Duration.ofMinutes(1))
						.until(() -> this.checker.insideOf(holder.pid()), Objects::nonNull);
					signal(holder, "STOP");
					this.checker.letGoOn(holder.pid());
					String lease = this.store.command("GET", KEYS.lockKey(key));
					await().atMost(Duration.ofMinutes(1))
						.alias("the frozen worker's lease ended")
						.until(() -> !this.store.command("GET", KEYS.lockKey(key)).equals(lease));
					long lostLeasesSeen = lostLeasesSeen();
					signal(holder, "CONT");
					await().atMost(Duration.ofMinutes(1))
						.alias("the woken worker saw that its lease was lost before it wrote")
						.until(() -> lostLeasesSeen() > lostLeasesSeen);
				}), new Fault("redis-server frozen (SIGSTOP) past the TTL", true, () -> {
					this.store.pause();
					awaitDown(PAST_THE_TTL);
					this.store.resume();
				}), new Fault("redis-server killed (kill -9), restarted empty at once", true, () -> {
					this.store.kill();
					this.store.restart();
				}), new Fault("redis-server killed, restarted empty after more than the TTL", true, () -> {
					this.store.kill();
					awaitDown(PAST_THE_TTL);
					this.store.restart();
				}), new Fault("CLIENT KILL of the lock connections", false,
						() -> this.store.command("CLIENT", "KILL", "TYPE", "normal")),
				new Fault("CLIENT KILL of the subscriber connections", false,
						() -> this.store.command("CLIENT", "KILL", "TYPE", "pubsub")),
				new Fault("memory full (maxmemory reached, noeviction) until lock calls fail", false, () -> {
					long failedBefore = this.phases.failedClosed();
					this.store.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
					this.store.command("CONFIG", "SET", "maxmemory", "1");
					await().atMost(Duration.ofMinutes(1))
						.until(() -> this.phases.failedClosed() > failedBefore + FaultPhases.STEADY_WRITES);
					this.store.command("CONFIG", "SET", "maxmemory", "0");
				}), new Fault("SCRIPT FLUSH", false, () -> this.store.command("SCRIPT", "FLUSH")));
	}

	/** Holds while the store answers no PING for {@code period}: the fault lasts that long. */
	private void awaitDown(Duration period) {
		await().during(period)
			.atMost(period.plusMinutes(1))
			.until(() -> !RedisServer.answersOn(this.store.port()));
	}

	private long lostLeasesSeen() {
		return this.checker.snapshot().getOrDefault("lost-leases-seen", 0L);
	}

	private static void signal(Process process, String signal) throws Exception {
		assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor()).isZero();
	}

}
