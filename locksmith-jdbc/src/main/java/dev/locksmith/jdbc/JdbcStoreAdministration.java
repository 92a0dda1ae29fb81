package dev.locksmith.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.StoreAdministration;

/** What operators see and do in the PostgreSQL store: the live lock rows, forced release, a ping. */
final class JdbcStoreAdministration implements StoreAdministration {

	private final JdbcCalls calls;

	private final JdbcTables tables;

	private final Duration claimLease;

	JdbcStoreAdministration(JdbcCalls calls, JdbcTables tables, Duration claimLease) {
		this.calls = calls;
		this.tables = tables;
		this.claimLease = claimLease;
	}

	@Override
	public String storeDescription() {
		return "postgresql";
	}

	@Override
	public CompletableFuture<Void> ping() {
		return this.calls.call("to answer a ping", (connection) -> {
			try (Statement ping = connection.createStatement()) {
				ping.execute("SELECT 1");
				return null;
			}
		});
	}

	/** The live locks, each holder named by its owner token (without the mark of a minimum hold). */
	@Override
	public CompletableFuture<List<StoredLock>> storedLocks(int limit) {
		return this.calls.call("to list the locks", (connection) -> {
			try (PreparedStatement list = connection.prepareStatement("SELECT lock_key, regexp_replace(owner_token, "
					+ "'\\+released$', ''), floor(extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint FROM "
					+ this.tables.locks() + " WHERE expires_at > clock_timestamp() ORDER BY lock_key LIMIT ?")) {
				list.setInt(1, limit);
				List<StoredLock> locks = new ArrayList<>();
				try (ResultSet rows = list.executeQuery()) {
					while (rows.next()) {
						locks.add(StoredLock.of(rows.getString(1), Duration.ofMillis(rows.getLong(3)), rows.getString(2)));
					}
				}
				return locks;
			}
		});
	}

	@Override
	public CompletableFuture<Boolean> forceRelease(String key) {
		return this.calls.call("to force the release of a lock", (connection) -> {
			try (PreparedStatement release = connection.prepareStatement(this.tables.call("force_release", 2))) {
				release.setString(1, key);
				release.setLong(2, this.claimLease.toMillis());
				try (ResultSet answer = release.executeQuery()) {
					answer.next();
					return answer.getBoolean(1);
				}
			}
		});
	}

}
