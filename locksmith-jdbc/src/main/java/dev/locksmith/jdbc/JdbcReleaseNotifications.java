package dev.locksmith.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import dev.locksmith.core.ReleaseNotifications;

/**
 * {@link ReleaseNotifications} from PostgreSQL's {@code LISTEN/NOTIFY}: one connection of its own listens on
 * the store's hand-over channel, on a thread of its own, and passes each hand-over of a watched key to the
 * listeners. A notice is sent only when the transaction that handed the lock over commits. While the
 * connection is down the thread opens a new one every second; waiters re-check meanwhile.
 */
final class JdbcReleaseNotifications implements ReleaseNotifications, AutoCloseable {

	private static final System.Logger logger = System.getLogger(JdbcReleaseNotifications.class.getName());

	private static final int POLL_MILLIS = 250;

	private static final long RECONNECT_MILLIS = 1000;

	private final DataSource dataSource;

	private final String channel;

	private final List<Listener> listeners = new CopyOnWriteArrayList<>();

	private final Map<String, Integer> watched = new ConcurrentHashMap<>();

	private final CountDownLatch listening = new CountDownLatch(1);

	private volatile boolean running;

	private @Nullable Thread thread;

	JdbcReleaseNotifications(DataSource dataSource, String channel) {
		this.dataSource = dataSource;
		this.channel = channel;
	}

	synchronized void start() {
		if (this.thread == null) {
			this.running = true;
			Thread listener = new Thread(this::listen, "locksmith-jdbc-notifications");
			listener.setDaemon(true);
			listener.start();
			this.thread = listener;
		}
	}

	@Override
	public void listen(Listener listener) {
		this.listeners.add(listener);
	}

	/** Watches {@code key}; waits at most {@code maxWait} for the listening connection to be open. */
	@Override
	public boolean watch(String key, Duration maxWait) {
		boolean added = this.watched.merge(key, 1, Integer::sum) == 1;
		try {
			this.listening.await(maxWait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return added;
	}

	@Override
	public void unwatch(String key) {
		this.watched.computeIfPresent(key, (k, count) -> (count > 1) ? count - 1 : null);
	}

	@Override
	public synchronized void close() {
		this.running = false;
		if (this.thread != null) {
			this.thread.interrupt();
			this.thread = null;
		}
	}

	private void listen() {
		while (this.running) {
			try (Connection connection = this.dataSource.getConnection()) {
				connection.setAutoCommit(true);
				try (Statement statement = connection.createStatement()) {
					statement.execute("LISTEN " + this.channel);
				}
				this.listening.countDown();
				PGConnection notices = connection.unwrap(PGConnection.class);
				while (this.running) {
					PGNotification[] received = notices.getNotifications(POLL_MILLIS);
					if (received != null) {
						for (PGNotification notification : received) {
							deliver(notification.getParameter());
						}
					}
				}
			}
			catch (SQLException ex) {
				if (this.running) {
					logger.log(System.Logger.Level.DEBUG, "Listening for lock hand-overs failed; opening a new connection", ex);
					pause();
				}
			}
		}
	}

	/** Passes on a hand-over written as {@code <claim ms>:<token>:<owner length>:<owner><key>}. */
	private void deliver(String payload) {
		String[] parts = payload.split(":", 4);
		int ownerLength = Integer.parseInt(parts[2]);
		String owner = parts[3].substring(0, ownerLength);
		String key = parts[3].substring(ownerLength);
		if (this.watched.containsKey(key)) {
			Duration claimLease = Duration.ofMillis(Long.parseLong(parts[0]));
			long fencingToken = Long.parseLong(parts[1]);
			this.listeners.forEach((listener) -> listener.handedOver(key, owner, claimLease, fencingToken));
		}
	}

	private void pause() {
		try {
			Thread.sleep(RECONNECT_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
