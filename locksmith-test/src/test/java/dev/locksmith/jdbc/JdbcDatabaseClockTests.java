package dev.locksmith.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leases on a database whose clock is an hour ahead of the application's: the store counts every lease on the
 * database's clock, so the application's clock, however far off, changes nothing.
 */
@Tag("slow")
class JdbcDatabaseClockTests {

	@RegisterExtension
	static final PostgresServerExtension postgres = PostgresServerExtension.withLockSchemaOnAClock("+1h");

	private final JdbcLockStore store = JdbcLockStore.builder(postgres.dataSource()).build();

	private final DefaultLockService locks = DefaultLockService.builder(this.store).build();

	private final DefaultLockService others = DefaultLockService.builder(this.store).build();

	@AfterEach
	void close() {
		this.locks.close();
		this.others.close();
		this.store.close();
	}

	@Test
	void theDatabaseClockIsAnHourAhead() throws Exception {
		try (Connection connection = postgres.dataSource().getConnection();
				Statement statement = connection.createStatement();
				ResultSet answer = statement.executeQuery("SELECT clock_timestamp()")) {
			answer.next();
			assertThat(Duration.between(Instant.now(), answer.getTimestamp(1).toInstant()))
				.isBetween(Duration.ofMinutes(59), Duration.ofMinutes(61));
		}
	}

	// Spring Integration #3885: the JDBC lock repository timed its locks by each application's own clock
	@Test
	void theApplicationsClockNeverTimesALease() throws Exception {
		LockHandle held = this.locks.tryAcquire("job", LockOptions.ofTtl(Duration.ofSeconds(30)).withRenew(false))
			.orElseThrow();

		assertThat(this.others.tryAcquire("job", LockOptions.ofTtl(Duration.ofSeconds(30)))).isEmpty();
		StoredLock stored = this.locks.administration().storedLocks(10).get(0);
		assertThat(stored.remainingTtl()).isBetween(Duration.ofSeconds(20), Duration.ofSeconds(30));
		held.close();
		assertThat(this.others.tryAcquire("job", LockOptions.ofTtl(Duration.ofSeconds(30)))).isPresent();
	}

}
