package dev.locksmith.redis;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.LockOwner;

/** One of Redlock's Redis servers: its name for messages, and the single-server lock scripts run on it. */
final class RedlockNode implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(RedlockNode.class);

	private final String name;

	private final RedisLockBackend locks;

	RedlockNode(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this.name = nameOf(connectionFactory);
		this.locks = new RedisLockBackend(connectionFactory, keys);
	}

	String name() {
		return this.name;
	}

	/** The lock scripts on this server; its waiters never queue, so it hands no lock over. */
	RedisLockBackend locks() {
		return this.locks;
	}

	/**
	 * Tells this server's subscribers that {@code owner} freed {@code keys}, without waiting for it:
	 * a notice that fails only leaves the waiters to their re-check.
	 */
	void announceRelease(List<String> keys, LockOwner owner) {
		this.locks.announceRelease(keys, owner).whenComplete((done, failure) -> {
			if (failure != null) {
				logger.debug("Could not announce a release on " + this.name + "; its waiters re-check", failure);
			}
		});
	}

	@Override
	public void close() {
		this.locks.close();
	}

	@Override
	public String toString() {
		return this.name;
	}

	/** {@code host:port} of a Lettuce factory, else what the factory says of itself. */
	static String nameOf(RedisConnectionFactory connectionFactory) {
		return (connectionFactory instanceof LettuceConnectionFactory lettuce)
				? lettuce.getHostName() + ":" + lettuce.getPort() : connectionFactory.toString();
	}

}
