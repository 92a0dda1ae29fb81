package dev.locksmith.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

/**
 * The PostgreSQL store's schema ({@code schema-postgresql.sql} beside this class) under a table prefix:
 * creates it, or checks that its tables exist and says which are missing.
 *
 * @since 0.1.0
 */
public final class JdbcLockSchema {

	private final DataSource dataSource;

	private final JdbcTables tables;

	/** The schema of the store whose tables start with {@code tablePrefix}, in {@code dataSource}. */
	public JdbcLockSchema(DataSource dataSource, String tablePrefix) {
		this.dataSource = dataSource;
		this.tables = new JdbcTables(tablePrefix);
	}

	/** Creates the tables and functions that are missing, and replaces the functions; safe to run again. */
	public void create() {
		try (Connection connection = this.dataSource.getConnection(); Statement statement = connection.createStatement()) {
			connection.setAutoCommit(true);
			for (String sql : this.tables.schemaStatements()) {
				statement.execute(sql);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not create the lock store's schema: " + ex.getMessage(), ex);
		}
	}

	/** The store's tables that the database lacks, visible on the data source's search path. */
	public List<String> missingTables() {
		List<String> missing = new ArrayList<>();
		try (Connection connection = this.dataSource.getConnection()) {
			for (String table : this.tables.tables()) {
				if (!exists(connection, table)) {
					missing.add(table);
				}
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not check the lock store's schema: " + ex.getMessage(), ex);
		}
		return missing;
	}

	/** Fails, naming them, when tables of the store are missing. */
	public void verify() {
		List<String> missing = missingTables();
		if (!missing.isEmpty()) {
			throw new IllegalStateException("The PostgreSQL lock store's table(s) " + missing + " are missing: run "
					+ "dev/locksmith/jdbc/schema-postgresql.sql (in locksmith-jdbc), or let Locksmith create them "
					+ "with locksmith.jdbc.initialize-schema=always");
		}
	}

	private static boolean exists(Connection connection, String table) throws SQLException {
		try (var statement = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
			statement.setString(1, table);
			try (ResultSet answer = statement.executeQuery()) {
				answer.next();
				return answer.getBoolean(1);
			}
		}
	}

}
