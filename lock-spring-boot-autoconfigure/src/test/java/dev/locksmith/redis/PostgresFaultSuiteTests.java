package dev.locksmith.redis;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

import dev.locksmith.jdbc.PostgresServerExtension;
import dev.locksmith.redis.FaultPhases.Fault;
import dev.locksmith.redis.ReliabilityReport.Outcome;
import dev.locksmith.testing.RedisServer;

import static org.awaitility.Awaitility.await;

/**
 * The fault suite on the PostgreSQL store: three worker JVMs do the fenced read-modify-writes of
 * {@link FaultSuiteTests}, their locks in one PostgreSQL server that commits durably, while it is killed,
 * frozen, its connections terminated and its calls held past the statement timeout; a checker on a Redis
 * that is never faulted counts critical sections, overlaps and lost updates. The figures are written to a
 * section of {@code docs/reliability.md}.
 */
@Tag("faults")
@Tag("slow")
class PostgresFaultSuiteTests {

	@RegisterExtension
	static final PostgresServerExtension postgres = PostgresServerExtension.withDurableLockSchema();

	private static final int WORKERS = 3;

	private static final Duration PAST_THE_TTL = FencedCounterWorker.TTL.plusSeconds(1);

	private final List<Process> workers = new ArrayList<>();

	private RedisServer checkerServer;

	private Checker checker;

	private FaultPhases phases;

	@BeforeEach
	void start() throws Exception {
		this.checkerServer = RedisServer.start();
		this.checker = new Checker(this.checkerServer.port());
		this.phases = new FaultPhases(this.checker);
		this.workers.addAll(FaultPhases.startWorkers(WORKERS, PostgresFencedCounterWorker.class, postgres.jdbcUrl(),
				Integer.toString(this.checkerServer.port())));
	}

	@AfterEach
	void stop() {
		this.workers.forEach(Process::destroyForcibly);
		this.checker.close();
		this.checkerServer.close();
	}

	@Test
	void fencedWorkLosesNoUpdateAndRecoversAfterEveryFault() throws Exception {
		List<Outcome> outcomes = this.phases.run(faults(), this.workers);
		Map<String, Long> totals = this.phases.check(outcomes);
		ReliabilityReport.writeSection("faults-postgresql", "## The same faults on PostgreSQL\n\nWritten by "
				+ "`PostgresFaultSuiteTests`, which `./mvnw verify` runs; refreshed with `./mvnw -pl "
				+ "lock-spring-boot-autoconfigure -am verify -Dtest=PostgresFaultSuiteTests "
				+ "-Dsurefire.failIfNoSpecifiedTests=false -Dreliability.publish=true`.\n\nThe workload and checker of "
				+ "the first table, with the locks in the PostgreSQL store (`locksmith.store=jdbc`) on one embedded "
				+ "PostgreSQL server that commits durably (`synchronous_commit=on`, PostgreSQL's default). Each worker JVM "
				+ "has a pool of 4 connections (250 ms to connect) and a store whose statement timeout and store timeout "
				+ "are 500 ms. A killed server (every process of it, `kill -9`) starts again on its data, after crash "
				+ "recovery; a frozen one (every process, `SIGSTOP`) stays frozen for 3 s, past the 2 s lease; the "
				+ "terminated connections are every connection of the workers, pools and listening ones; a session of "
				+ "another application holds the accounts' advisory locks, which every lock call on them waits for, "
				+ "until 20 lock calls failed at the statement timeout.\n\n" + ReliabilityReport.table(outcomes, totals,
						"PostgreSQL " + serverVersion()));
	}

	private List<Fault> faults() {
		return List.of(new Fault("none (baseline)", false, this.phases::awaitSteadyWrites),
				new Fault("postgres killed (kill -9 of every process), restarted at once", false, () -> {
					postgres.kill();
					postgres.start();
				}), new Fault("postgres killed, restarted after more than the TTL", false, () -> {
					postgres.kill();
					awaitDown(PAST_THE_TTL);
					postgres.start();
				}), new Fault("postgres frozen (SIGSTOP) past the TTL", true, () -> {
					postgres.pause();
					awaitDown(PAST_THE_TTL);
					postgres.resume();
				}), new Fault("pg_terminate_backend of every lock connection", false,
						() -> postgres.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
								+ "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")),
				new Fault("another session holds the keys' advisory locks past the statement timeout", false,
						this::holdTheKeysUntilCallsFail));
	}

	/** Holds the advisory locks that calls on the accounts take, until 20 more lock calls failed closed. */
	private void holdTheKeysUntilCallsFail() throws SQLException {
		long failedBefore = this.phases.failedClosed();
		try (Connection session = postgres.dataSource().getConnection(); Statement statement = session.createStatement()) {
			for (String key : Checker.KEYS) {
				statement.execute("SELECT pg_advisory_lock(1819239275, hashtext('locksmith_" + key + "'))");
			}
			await().atMost(Duration.ofMinutes(1))
				.until(() -> this.phases.failedClosed() > failedBefore + FaultPhases.STEADY_WRITES);
		}
	}

	/** Holds while the server accepts no connection within a second for {@code period}: the fault lasts that long. */
	private void awaitDown(Duration period) {
		await().during(period).atMost(period.plusMinutes(1)).until(() -> !answers());
	}

	private static boolean answers() {
		PGSimpleDataSource probe = new PGSimpleDataSource();
		probe.setUrl(postgres.jdbcUrl());
		probe.setUser("postgres");
		probe.setLoginTimeout(1);
		try (Connection connection = probe.getConnection()) {
			return connection.isValid(1);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private static String serverVersion() throws SQLException {
		try (Connection connection = postgres.dataSource().getConnection();
				Statement statement = connection.createStatement();
				ResultSet answer = statement.executeQuery("SHOW server_version")) {
			answer.next();
			return answer.getString(1);
		}
	}

}
