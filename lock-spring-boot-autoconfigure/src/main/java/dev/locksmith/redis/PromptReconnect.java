package dev.locksmith.redis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Replaces a lost Lettuce connection as soon as its server accepts connections again, instead of when
 * Lettuce's next reconnect attempt is due: Lettuce doubles its delay after each failed attempt, up to
 * 30 s, so after a long outage locking would stay down for up to that long once Redis is back. Told
 * that the connection is down, it checks in the background whether the server accepts a TCP
 * connection (one check at a time, at most one every {@link #PROBE_INTERVAL}), and when it does, runs
 * {@code replace} on that background thread, never on the caller's (which may be one of Lettuce's
 * event loops, where a blocking connect could wait for itself). Only for a factory that shares one
 * connection to one server (neither a cluster nor Sentinel nor a Unix socket): elsewhere Lettuce's
 * reconnect is left alone.
 */
final class PromptReconnect implements AutoCloseable {

	/** Least time between two checks of a server that did not accept. */
	static final Duration PROBE_INTERVAL = Duration.ofMillis(200);

	/** Longest wait for the server to accept the check's connection. */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(PromptReconnect.class);

	private final String host;

	private final int port;

	private final Runnable replace;

	/** One thread at most, gone when idle; a check asked for while one runs is dropped. */
	private final ThreadPoolExecutor probes = new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS,
			new SynchronousQueue<>(), DaemonThreads.named("locksmith-reconnect"),
			new ThreadPoolExecutor.DiscardPolicy());

	private volatile long nextProbe = System.nanoTime();

	private PromptReconnect(String host, int port, Runnable replace) {
		this.host = host;
		this.port = port;
		this.replace = replace;
	}

	/**
	 * Prompt reconnects that run {@code replace} once the server of {@code connectionFactory} accepts
	 * connections, or {@code null} when the factory is not one shared connection to one server.
	 */
	static @Nullable PromptReconnect forFactory(LettuceConnectionFactory connectionFactory, Runnable replace) {
		boolean oneServer = !connectionFactory.isClusterAware() && !connectionFactory.isRedisSentinelAware()
				&& connectionFactory.getSocketConfiguration() == null;
		return (oneServer && connectionFactory.getShareNativeConnection())
				? new PromptReconnect(connectionFactory.getHostName(), connectionFactory.getPort(), replace) : null;
	}

	/** Starts a check of the server in the background, unless one runs or the last ended too recently. */
	void connectionDown() {
		if (System.nanoTime() - this.nextProbe >= 0) {
			this.probes.execute(this::probe);
		}
	}

	private void probe() {
		try {
			if (accepts(this.host, this.port)) {
				this.replace.run();
			}
		}
		catch (RuntimeException ex) {
			logger.debug("Could not reconnect to Redis yet; Lettuce keeps trying", ex);
		}
		finally {
			this.nextProbe = System.nanoTime() + PROBE_INTERVAL.toNanos();
		}
	}

	/**
	 * A connection of {@code connectionFactory} that Lettuce does not know to be down: the shared one,
	 * or, when that is down, a new one, opened on the calling thread after resetting the shared one.
	 */
	static RedisConnection upConnection(LettuceConnectionFactory connectionFactory) {
		RedisConnection shared = connectionFactory.getConnection();
		if (isUp(shared)) {
			return shared;
		}
		shared.close();
		connectionFactory.resetConnection();
		return connectionFactory.getConnection();
	}

	/**
	 * Fails at once while Lettuce knows {@code connection} is down, and then has {@code reconnect}, if
	 * any, check the server in the background.
	 */
	static void requireUp(RedisConnection connection, @Nullable PromptReconnect reconnect) {
		try {
			LettuceState.requireUp(connection.getNativeConnection());
		}
		catch (RedisConnectionFailureException ex) {
			if (reconnect != null) {
				reconnect.connectionDown();
			}
			throw ex;
		}
	}

	/** Whether Lettuce does not know {@code connection} to be down. */
	static boolean isUp(RedisConnection connection) {
		try {
			LettuceState.requireUp(connection.getNativeConnection());
			return true;
		}
		catch (RedisConnectionFailureException ex) {
			return false;
		}
	}

	private static boolean accepts(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), (int) PROBE_TIMEOUT.toMillis());
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	@Override
	public void close() {
		this.probes.shutdownNow();
	}

}
