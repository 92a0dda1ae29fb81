package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;

import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.locksmith.core.ReleaseNotifications;

/**
 * Release notifications from every Redlock server: a waiter watches its keys on each of them and looks
 * again when any one announces a release, so a server that is down delays nobody; the other servers'
 * notices of the same release are dropped. Each server has its own subscriber connection, dispatch
 * thread and housekeeping thread.
 */
final class RedlockReleaseNotifications implements ReleaseNotifications {

	private final List<RedisReleaseNotifications> servers;

	RedlockReleaseNotifications(List<? extends RedisConnectionFactory> servers, RedisLockKeys keys) {
		this.servers = servers.stream().map((server) -> new RedisReleaseNotifications(server, keys)).toList();
	}

	/** Notifications initialized and started at once, for use without an application context. */
	static RedlockReleaseNotifications started(List<? extends RedisConnectionFactory> servers,
			RedisLockKeys keys) {
		RedlockReleaseNotifications notifications = new RedlockReleaseNotifications(servers, keys);
		notifications.afterPropertiesSet();
		notifications.start();
		return notifications;
	}

	public void afterPropertiesSet() {
		this.servers.forEach(RedisReleaseNotifications::afterPropertiesSet);
	}

	public void start() {
		this.servers.forEach(RedisReleaseNotifications::start);
	}

	public void stop() {
		this.servers.forEach(RedisReleaseNotifications::stop);
	}

	public boolean isRunning() {
		return this.servers.stream().anyMatch(RedisReleaseNotifications::isRunning);
	}

	@Override
	public void listen(Listener listener) {
		Listener firstNotices = new FirstNotices(listener);
		this.servers.forEach((server) -> server.listen(firstNotices));
	}

	/** Watches the key on every server, all within {@code maxWait} together. */
	@Override
	public boolean watch(String key, Duration maxWait) {
		long deadline = System.nanoTime() + maxWait.toNanos();
		boolean began = false;
		for (RedisReleaseNotifications server : this.servers) {
			began |= server.watch(key, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
		}
		return began;
	}

	@Override
	public void unwatch(String key) {
		this.servers.forEach((server) -> server.unwatch(key));
	}

	void destroy() {
		this.servers.forEach(RedisReleaseNotifications::destroy);
	}

}
