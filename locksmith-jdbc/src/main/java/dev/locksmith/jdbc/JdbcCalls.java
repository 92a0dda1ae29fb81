package dev.locksmith.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.locksmith.core.LockUnavailableException;

/**
 * Runs each store call as one short transaction on a connection of the data source, on the store's own
 * small executor, so that the store never holds more connections than it has threads and a caller never
 * blocks. Each transaction runs at {@code READ COMMITTED} whatever the pool's default isolation: the schema's
 * functions serialize the calls on a key by advisory locks and read what the call before committed, which a
 * snapshot taken before the wait (at {@code REPEATABLE READ} and {@code SERIALIZABLE}) would not show, failing
 * the call with a serialization failure. Each transaction is bounded by {@code SET LOCAL statement_timeout};
 * a failure fails the call's future with {@link LockUnavailableException}.
 */
final class JdbcCalls implements AutoCloseable {

	private final DataSource dataSource;

	private final long statementTimeoutMillis;

	private final ExecutorService executor;

	JdbcCalls(DataSource dataSource, Duration statementTimeout, int threads) {
		this.dataSource = dataSource;
		this.statementTimeoutMillis = statementTimeout.toMillis();
		AtomicInteger count = new AtomicInteger();
		this.executor = Executors.newFixedThreadPool(threads, (task) -> {
			Thread thread = new Thread(task, "locksmith-jdbc-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
	}

	/** Runs {@code work} in a transaction of its own; {@code what} names it in failures. */
	<T> CompletableFuture<T> call(String what, Work<T> work) {
		CompletableFuture<T> answer = new CompletableFuture<>();
		try {
			this.executor.execute(() -> {
				try {
					answer.complete(inTransaction(work));
				}
				catch (SQLException | RuntimeException ex) {
					answer.completeExceptionally(new LockUnavailableException("PostgreSQL lock store failed " + what
							+ ": " + ex.getMessage(), ex));
				}
			});
		}
		catch (RejectedExecutionException ex) {
			answer.completeExceptionally(new LockUnavailableException("PostgreSQL lock store is closed", ex));
		}
		return answer;
	}

	private <T> T inTransaction(Work<T> work) throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			boolean autoCommit = connection.getAutoCommit();
			connection.setAutoCommit(false);
			try {
				try (Statement timeout = connection.createStatement()) {
					timeout.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED; SET LOCAL statement_timeout = "
							+ this.statementTimeoutMillis);
				}
				T result = work.run(connection);
				connection.commit();
				return result;
			}
			catch (SQLException | RuntimeException ex) {
				try {
					connection.rollback();
				}
				catch (SQLException rollbackFailure) {
					ex.addSuppressed(rollbackFailure);
				}
				throw ex;
			}
			finally {
				connection.setAutoCommit(autoCommit);
			}
		}
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	/** The statements of one call, on the connection of its transaction. */
	@FunctionalInterface
	interface Work<T> {

		T run(Connection connection) throws SQLException;

	}

}
