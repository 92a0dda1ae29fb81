package dev.locksmith.jdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.OwnerEntries;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.core.StoreAdministration;

/**
 * {@link LockStore} on PostgreSQL: one row per held lock with its lease on the database's clock, a fencing
 * counter per key that is never deleted, and a fair queue per key whose first waiter a release hands the lock
 * to under the claim lease, told by {@code LISTEN/NOTIFY}. Each call is one short transaction (a function of
 * {@code schema-postgresql.sql}) on the store's own small executor, so waiters hold no connection while they
 * wait. Readers and permit holders share a lock with the Redis store's rules: each with its own lease and
 * fencing token, queued with the key's writers in arrival order, a release handing the lock to every waiting
 * reader up to the next writer.
 * <pre>{@code
 * JdbcLockStore store = JdbcLockStore.builder(dataSource).build();
 * store.start();
 * DefaultLockService locks = DefaultLockService.builder(store).build();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class JdbcLockStore implements LockStore {

	private final JdbcCalls calls;

	private final JdbcTables tables;

	private final Duration claimLease;

	private final JdbcReleaseNotifications notifications;

	private final JdbcStoreAdministration administration;

	private JdbcLockStore(Builder builder) {
		this.calls = new JdbcCalls(builder.dataSource, builder.statementTimeout, builder.threads);
		this.tables = new JdbcTables(builder.tablePrefix);
		this.claimLease = builder.claimLease;
		this.notifications = new JdbcReleaseNotifications(builder.dataSource, this.tables.handOverChannel());
		this.administration = new JdbcStoreAdministration(this.calls, this.tables, builder.claimLease);
	}

	/** A builder of a store on {@code dataSource}. */
	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
	}

	/** Opens the connection that listens for hand-overs; locks work without it, with waiters re-checking. */
	public void start() {
		this.notifications.start();
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		if (!request.owner().share().exclusive()) {
			return acquireShare(request);
		}
		return this.calls.call("to acquire " + request.keys(), (connection) -> {
			try (PreparedStatement acquire = connection.prepareStatement(this.tables.call("acquire", 5))) {
				acquire.setArray(1, texts(connection, request.keys()));
				Long[] answer = (Long[]) answer(acquire, request).getArray();
				if (answer[0] == 0) {
					return busy(request.keys().get(answer[1].intValue() - 1), answer);
				}
				Map<String, Long> tokens = new LinkedHashMap<>();
				for (int i = 0; i < request.keys().size(); i++) {
					tokens.put(request.keys().get(i), answer[i + 1]);
				}
				return AcquireResult.granted(tokens);
			}
		});
	}

	/**
	 * Takes the reader's share or the permit that the request's owner asks for, or queues for it.
	 * @throws IllegalStateException (through the future) when the lock is held with another permit count
	 */
	private CompletableFuture<AcquireResult> acquireShare(AcquireRequest request) {
		String key = request.keys().get(0);
		return this.calls.call("to acquire " + request.keys(), (connection) -> {
			try (PreparedStatement acquire = connection.prepareStatement(this.tables.call("acquire_share", 5))) {
				acquire.setString(1, key);
				return (Long[]) answer(acquire, request).getArray();
			}
		}).thenApply((answer) -> switch (answer[0].intValue()) {
			case 1 -> AcquireResult.granted(Map.of(key, answer[1]));
			case 0 -> busy(key, answer);
			default -> throw OwnerEntries.permitsMismatch(key, request.owner().share().permits(), answer[1]);
		});
	}

	/** A refusal answered {@code {0, i, remaining lease in ms, fencing counter}}. */
	private static AcquireResult busy(String key, Long[] answer) {
		return AcquireResult.busy(key, Duration.ofMillis(answer[2]), answer[3]);
	}

	/** Releases; tells {@code handOvers} of each waiter the release handed a lock to before it answers. */
	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner,
			ReleaseNotifications.Listener handOvers) {
		return this.calls.call("to release " + keys, (connection) -> {
			try (PreparedStatement release = connection.prepareStatement(this.tables.call("release", 3))) {
				release.setArray(1, texts(connection, keys));
				release.setString(2, OwnerEntries.of(owner));
				release.setLong(3, this.claimLease.toMillis());
				return (String[]) single(release).getArray();
			}
		}).thenApply((answer) -> {
			for (int i = 1; i + 2 < answer.length; i += 3) {
				handOvers.handedOver(answer[i], answer[i + 1], this.claimLease, Long.parseLong(answer[i + 2]));
			}
			return Integer.parseInt(answer[0]);
		});
	}

	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		CompletableFuture<Boolean[]> extended = this.calls.call("to extend " + leases.size() + " lease(s)",
				(connection) -> {
					try (PreparedStatement extend = connection.prepareStatement(this.tables.call("extend", 4))) {
						extend.setArray(1, texts(connection, leases.stream().map(LeaseExtension::key).toList()));
						extend.setArray(2, texts(connection,
								leases.stream().map((lease) -> OwnerEntries.of(lease.owner())).toList()));
						extend.setArray(3, connection.createArrayOf("bigint",
								leases.stream().map((lease) -> lease.ttl().toMillis()).toArray()));
						extend.setArray(4, connection.createArrayOf("boolean",
								leases.stream().map(LeaseExtension::last).toArray()));
						return (Boolean[]) single(extend).getArray();
					}
				});
		return IntStream.range(0, leases.size())
			.mapToObj((i) -> extended.thenApply((answers) -> answers[i]))
			.toList();
	}

	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		return this.calls.call("to check " + key, (connection) -> {
			try (PreparedStatement locked = connection.prepareStatement("SELECT EXISTS (SELECT 1 FROM "
					+ this.tables.locks() + " WHERE lock_key = ? AND expires_at > clock_timestamp())")) {
				locked.setString(1, key);
				try (ResultSet answer = locked.executeQuery()) {
					answer.next();
					return answer.getBoolean(1);
				}
			}
		});
	}

	@Override
	public StoreAdministration administration() {
		return this.administration;
	}

	/** The notices of hand-overs, from the connection that listens for them. */
	@Override
	public ReleaseNotifications notifications() {
		return this.notifications;
	}

	/** Readers and permits, as on Redis. */
	@Override
	public boolean grantsShares() {
		return true;
	}

	@Override
	public Duration claimLease() {
		return this.claimLease;
	}

	/** Stops listening and ends the store's threads. */
	@Override
	public void close() {
		this.notifications.close();
		this.calls.close();
	}

	private static Array texts(Connection connection, List<String> values) throws SQLException {
		return connection.createArrayOf("text", values.toArray());
	}

	/**
	 * Runs an acquisition, the key or keys set as its first parameter, with the request's owner entry, lease,
	 * queueing time and the claim lease as the next four, for its one value.
	 */
	private Array answer(PreparedStatement acquisition, AcquireRequest request) throws SQLException {
		acquisition.setString(2, OwnerEntries.of(request.owner()));
		acquisition.setLong(3, request.ttl().toMillis());
		acquisition.setLong(4, request.queueFor().toMillis());
		acquisition.setLong(5, this.claimLease.toMillis());
		return single(acquisition);
	}

	private static Array single(PreparedStatement statement) throws SQLException {
		try (ResultSet answer = statement.executeQuery()) {
			answer.next();
			return answer.getArray(1);
		}
	}

	/**
	 * Builds a {@link JdbcLockStore}.
	 *
	 * @since 0.1.0
	 */
	public static final class Builder {

		private final DataSource dataSource;

		private String tablePrefix = JdbcTables.DEFAULT_PREFIX;

		private Duration claimLease = Duration.ofSeconds(2);

		private Duration statementTimeout = Duration.ofSeconds(2);

		private int threads = 4;

		private Builder(DataSource dataSource) {
			if (dataSource == null) {
				throw new IllegalArgumentException("dataSource must not be null");
			}
			this.dataSource = dataSource;
		}

		/** The prefix of the store's tables and functions, {@code locksmith_} by default. */
		public Builder tablePrefix(String tablePrefix) {
			JdbcTables.checkPrefix(tablePrefix);
			this.tablePrefix = tablePrefix;
			return this;
		}

		/** How long a waiter that a release hands a lock to has to take it, 2 seconds by default. */
		public Builder claimLease(Duration claimLease) {
			if (claimLease == null || claimLease.toMillis() < 1) {
				throw new IllegalArgumentException("claimLease must be at least 1ms, was " + claimLease);
			}
			this.claimLease = claimLease;
			return this;
		}

		/** How long one call's transaction may run in the database, 2 seconds by default. */
		public Builder statementTimeout(Duration statementTimeout) {
			if (statementTimeout == null || statementTimeout.toMillis() < 1) {
				throw new IllegalArgumentException("statementTimeout must be at least 1ms, was " + statementTimeout);
			}
			this.statementTimeout = statementTimeout;
			return this;
		}

		/** How many calls run at once, each on a connection of the data source: 4 by default. */
		public Builder threads(int threads) {
			if (threads < 1) {
				throw new IllegalArgumentException("threads must be at least 1, was " + threads);
			}
			this.threads = threads;
			return this;
		}

		/** The store; {@link JdbcLockStore#start()} starts its notifications. */
		public JdbcLockStore build() {
			return new JdbcLockStore(this);
		}

	}

}
