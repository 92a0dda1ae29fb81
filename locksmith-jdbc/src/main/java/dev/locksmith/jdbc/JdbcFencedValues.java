package dev.locksmith.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.FencedValues;

/**
 * {@link FencedValues} in a PostgreSQL table: a write is one guarded statement, applied only when its
 * fencing token is at least the highest one the key has seen ({@code ... WHERE token <= :token}), so a
 * holder whose lease ran out while it was paused is rejected once a newer holder wrote.
 *
 * @since 0.1.0
 */
public final class JdbcFencedValues implements FencedValues {

	private final DataSource dataSource;

	private final String table;

	/** The values of the store whose tables start with {@code tablePrefix}, in {@code dataSource}. */
	public JdbcFencedValues(DataSource dataSource, String tablePrefix) {
		this.dataSource = dataSource;
		this.table = new JdbcTables(tablePrefix).fencedValues();
	}

	@Override
	public boolean write(String key, String value, long fencingToken) {
		return query("INSERT INTO " + this.table + " AS v (value_key, value, token) VALUES (?, ?, ?) "
				+ "ON CONFLICT (value_key) DO UPDATE SET value = excluded.value, token = excluded.token "
				+ "WHERE v.token <= excluded.token RETURNING true", key, value, fencingToken) != null;
	}

	@Override
	public @Nullable String read(String key) {
		return query("SELECT value FROM " + this.table + " WHERE value_key = ?", key);
	}

	@Override
	public long highestToken(String key) {
		String token = query("SELECT token::text FROM " + this.table + " WHERE value_key = ?", key);
		return (token != null) ? Long.parseLong(token) : 0;
	}

	private @Nullable String query(String sql, Object... parameters) {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(sql)) {
			for (int i = 0; i < parameters.length; i++) {
				statement.setObject(i + 1, parameters[i]);
			}
			try (ResultSet answer = statement.executeQuery()) {
				return answer.next() ? answer.getString(1) : null;
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Fenced value store failed: " + ex.getMessage(), ex);
		}
	}

}
