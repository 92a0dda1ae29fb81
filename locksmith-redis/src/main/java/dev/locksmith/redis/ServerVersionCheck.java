package dev.locksmith.redis;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Refuses a Redis older than 6.2, the oldest that Locksmith's scripts and least-privilege users are
 * tested on, when the store starts and Redis answers within {@link #WAIT}; a Redis that does not answer
 * by then is left to the first lock call, so that an application still starts while Redis is down.
 * Valkey reports a Redis version of 7.2 and passes.
 */
final class ServerVersionCheck {

	/** The oldest Redis that Locksmith supports: 6.2. */
	private static final int OLDEST_MAJOR = 6;

	private static final int OLDEST_MINOR = 2;

	/** How long the store's start waits for Redis to tell its version. */
	static final Duration WAIT = Duration.ofSeconds(2);

	private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(\\.\\d+)?");

	private static final Log logger = LogFactory.getLog(ServerVersionCheck.class);

	private static final ThreadFactory THREADS = DaemonThreads.named("locksmith-version-check");

	private ServerVersionCheck() {
	}

	/**
	 * Asks the Redis of {@code connectionFactory} for its version.
	 * @throws IllegalStateException when it is older than 6.2, naming the version found and the one needed
	 */
	static void requireSupported(RedisConnectionFactory connectionFactory) {
		String version = versionOf(connectionFactory);
		if (version != null && isOlderThanSupported(version)) {
			throw new IllegalStateException("The Redis that Locksmith locks on is version " + version
					+ ", older than Locksmith supports: it needs Redis " + OLDEST_MAJOR + "." + OLDEST_MINOR
					+ " or later, or Valkey. Upgrade Redis, or point spring.data.redis at a newer server.");
		}
	}

	/** Whether {@code version}, such as {@code 6.0.16}, is older than 6.2. */
	static boolean isOlderThanSupported(String version) {
		Matcher matcher = VERSION.matcher(version);
		if (!matcher.find()) {
			return false;
		}
		int major = Integer.parseInt(matcher.group(1));
		int minor = Integer.parseInt(matcher.group(2));
		return major < OLDEST_MAJOR || (major == OLDEST_MAJOR && minor < OLDEST_MINOR);
	}

	/** The {@code redis_version} the server (on a cluster, any master) reports, or null when it does not answer in time. */
	private static @Nullable String versionOf(RedisConnectionFactory connectionFactory) {
		CompletableFuture<@Nullable String> answer = CompletableFuture.supplyAsync(() -> {
			try (RedisConnection connection = connectionFactory.getConnection()) {
				Properties info = connection.serverCommands().info("server");
				return (info != null) ? redisVersion(info) : null;
			}
		}, (task) -> THREADS.newThread(task).start());
		try {
			return answer.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			logger.debug("Could not read the Redis version at startup; the first lock call meets the server", ex);
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	/** The value of {@code redis_version}, or of a cluster node's {@code <node>.redis_version}. */
	private static @Nullable String redisVersion(Properties info) {
		for (String name : info.stringPropertyNames()) {
			if (name.equals("redis_version") || name.endsWith(".redis_version")) {
				return info.getProperty(name);
			}
		}
		return null;
	}

}
