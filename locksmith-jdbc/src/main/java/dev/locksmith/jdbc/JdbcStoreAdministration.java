package dev.locksmith.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.OwnerEntries;
import dev.locksmith.core.StoreAdministration;

/**
 * What operators see and do in the PostgreSQL store: the live locks and their shares, forced release, a ping.
 *
 * @param calls the store's calls, on which these run too
 * @param tables the names of the store's tables and functions
 * @param claimLease how long a waiter that a forced release hands a lock to has to take it
 */
record JdbcStoreAdministration(JdbcCalls calls, JdbcTables tables, Duration claimLease) implements StoreAdministration {

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

	/**
	 * The live locks, each holder named by its owner token (without its share or the mark of a minimum hold),
	 * a shared lock with each holder's own lease.
	 */
	@Override
	public CompletableFuture<List<StoredLock>> storedLocks(int limit) {
		return this.calls.call("to list the locks", (connection) -> {
			try (PreparedStatement list = connection.prepareStatement("SELECT l.lock_key, l.owner_token, "
					+ remaining("l") + ", regexp_replace(s.owner_token, '^(@read|@permits=[0-9]+)/|\\+released$', '', 'g'), "
					+ remaining("s") + " FROM (SELECT * FROM " + this.tables.locks()
					+ " WHERE expires_at > clock_timestamp() ORDER BY lock_key LIMIT ?) l LEFT JOIN "
					+ this.tables.shares() + " s ON s.lock_key = l.lock_key AND s.expires_at > clock_timestamp() "
					+ "ORDER BY l.lock_key")) {
				list.setInt(1, limit);
				try (ResultSet rows = list.executeQuery()) {
					return locks(rows);
				}
			}
		});
	}

	/** The milliseconds left of the lease of the row named {@code row}. */
	private static String remaining(String row) {
		return "floor(extract(epoch FROM " + row + ".expires_at - clock_timestamp()) * 1000)::bigint";
	}

	/** The locks of rows of lock key, owner, lease left, and holder and lease left of each share. */
	private static List<StoredLock> locks(ResultSet rows) throws SQLException {
		List<StoredLock> locks = new ArrayList<>();
		Map<String, Duration> shares = new LinkedHashMap<>();
		boolean more = rows.next();
		while (more) {
			String key = rows.getString(1);
			String owner = rows.getString(2);
			Duration lease = Duration.ofMillis(rows.getLong(3));
			shares.clear();
			while (more && key.equals(rows.getString(1))) {
				if (rows.getString(4) != null) {
					shares.put(rows.getString(4), Duration.ofMillis(rows.getLong(5)));
				}
				more = rows.next();
			}
			StoredLock lock = shares.isEmpty() ? StoredLock.of(key, lease, owner.replaceFirst("\\+released$", ""))
					: StoredLock.shared(key, OwnerEntries.typed(owner), shares);
			if (lock != null) {
				locks.add(lock);
			}
		}
		return locks;
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
