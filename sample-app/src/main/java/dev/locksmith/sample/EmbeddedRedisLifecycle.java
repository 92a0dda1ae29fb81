package dev.locksmith.sample;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

import dev.locksmith.testing.RedisServer;

/**
 * Stops the sample's embedded {@code redis-server} last among the lifecycles: after the web server has
 * drained its requests (whose locks need Redis to the end) and after the Redis connections closed, so
 * that no request loses its Redis and Lettuce never reconnects to a stopped one.
 */
final class EmbeddedRedisLifecycle implements SmartLifecycle {

	/** Lower than every other phase: stopped after all of them, the web server's graceful drain included. */
	static final int PHASE = Integer.MIN_VALUE;

	private static final Log logger = LogFactory.getLog(EmbeddedRedisLifecycle.class);

	private final RedisServer server;

	private volatile boolean running = true;

	EmbeddedRedisLifecycle(RedisServer server) {
		this.server = server;
	}

	/** Nothing to start: the server runs since the environment was prepared, before any connection was made. */
	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.server.close();
		this.running = false;
		logger.info("Stopped the embedded redis-server on 127.0.0.1:" + this.server.port());
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
