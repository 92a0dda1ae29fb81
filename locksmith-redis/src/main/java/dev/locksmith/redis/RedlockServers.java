package dev.locksmith.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The independent Redis servers behind Redlock: one Lettuce connection factory per URL, apart from
 * the application's own {@code spring.data.redis} connection, started and destroyed together, all on
 * one set of Lettuce threads and timers. While a server is disconnected its commands fail at once
 * instead of waiting for a reconnect, and Lettuce tries to reconnect at least every
 * {@code maxReconnectDelay} (its own delay doubles up to 30 s), so that a server back from a long outage
 * counts again toward the quorum within about that long. {@link RedlockLockStore} starts, stops and
 * destroys them.
 */
final class RedlockServers implements AutoCloseable {

	private final List<LettuceConnectionFactory> connectionFactories;

	private final ClientResources resources;

	private final ServerClocks clocks;

	private boolean initialized;

	private volatile boolean running;

	private RedlockServers(List<LettuceConnectionFactory> connectionFactories, ClientResources resources) {
		this.connectionFactories = connectionFactories;
		this.resources = resources;
		this.clocks = new ServerClocks(connectionFactories, Clock.systemUTC(), System::nanoTime);
	}

	/**
	 * Checks {@code urls} ({@code redis://[[user]:password@]host[:port][/database]}, or {@code rediss://}
	 * for TLS) and makes a connection factory for each, not started yet: a bean the application context
	 * starts; {@code source} names the setting in error messages. Each command waits at most
	 * {@code commandTimeout}; a lost connection is tried again at most {@code maxReconnectDelay} apart.
	 * @throws IllegalArgumentException when there are not 3 or 5 URLs, one is malformed, or two name
	 * the same server
	 */
	static RedlockServers of(List<String> urls, String source, Duration commandTimeout,
			Duration maxReconnectDelay) {
		List<RedisURI> servers = parse(requireRedlockCount(urls, source), source);
		ClientResources resources = DefaultClientResources.builder()
			.reconnectDelay(reconnectDelay(maxReconnectDelay))
			.build();
		List<LettuceConnectionFactory> connectionFactories = servers.stream()
			.map((server) -> new LettuceConnectionFactory(standalone(server), client(server, commandTimeout, resources)))
			.toList();
		return new RedlockServers(connectionFactories, resources);
	}

	/**
	 * Lettuce's own delay between reconnect attempts, doubling from 1ms, with jitter, but at most
	 * {@code max} (between half of it and all of it once it got there) instead of 30 s.
	 */
	private static Delay reconnectDelay(Duration max) {
		return Delay.fullJitter(Duration.ZERO, max, 1, TimeUnit.MILLISECONDS);
	}

	/** As {@link #of} with the default reconnect delay, started at once, for use without an application context. */
	static RedlockServers connect(List<String> urls, String source, Duration commandTimeout) {
		RedlockServers servers = of(urls, source, commandTimeout, RedlockLockStore.Builder.MAX_RECONNECT_DELAY);
		servers.start();
		return servers;
	}

	/** Connects to every server, initializing its connection factory the first time. */
	void start() {
		if (!this.initialized) {
			this.connectionFactories.forEach(LettuceConnectionFactory::afterPropertiesSet);
			this.initialized = true;
		}
		this.connectionFactories.forEach(LettuceConnectionFactory::start);
		this.running = true;
	}

	public void stop() {
		this.running = false;
		this.connectionFactories.forEach(LettuceConnectionFactory::stop);
	}

	public boolean isRunning() {
		return this.running;
	}

	/** The started connection factory of each server, in the order of the URLs. */
	public List<LettuceConnectionFactory> connectionFactories() {
		return this.connectionFactories;
	}

	/**
	 * For health: each server's clock offset against this process's wall clock by name
	 * ({@code clockOffsets}: {@code TIME}, less the local time at the middle of the round trip), and a
	 * {@code clockWarning}, logged once each time it appears, when two servers' clocks are surely
	 * further apart than 1% of {@code shortestTtl} plus 2ms. Waits at most {@code timeout} for each server.
	 */
	public Map<String, Object> clockDetails(Duration shortestTtl, Duration timeout) {
		return this.clocks.details(shortestTtl, timeout);
	}

	@Override
	public void close() {
		this.connectionFactories.forEach(LettuceConnectionFactory::destroy);
		this.resources.shutdown();
	}

	/** Redlock runs on 3 or 5 servers: fewer has no majority that survives a failure, more only costs. */
	static <T> List<T> requireRedlockCount(List<T> servers, String source) {
		if (servers.size() != 3 && servers.size() != 5) {
			throw new IllegalArgumentException(
					source + " must name 3 or 5 independent Redis servers for Redlock, but names " + servers.size());
		}
		return servers;
	}

	private static List<RedisURI> parse(List<String> urls, String source) {
		List<RedisURI> servers = new ArrayList<>(urls.size());
		Map<String, Integer> seen = new HashMap<>();
		for (int i = 0; i < urls.size(); i++) {
			String where = source + "[" + i + "]";
			RedisURI server = parse(urls.get(i), where);
			String address = server.getHost() + ":" + server.getPort();
			Integer same = seen.putIfAbsent(address, i);
			if (same != null) {
				throw new IllegalArgumentException(where + " names the same server as " + source + "[" + same + "] ("
						+ address + "); Redlock needs independent servers");
			}
			servers.add(server);
		}
		return servers;
	}

	private static RedisURI parse(String url, String where) {
		String hint = "; expected redis://[[user]:password@]host[:port][/database] or rediss://...";
		if (url == null || !(url.startsWith("redis://") || url.startsWith("rediss://"))) {
			throw new IllegalArgumentException(where + " must be a redis:// or rediss:// URL" + hint);
		}
		try {
			URI uri = new URI(url);
			if (uri.getHost() == null) {
				throw new IllegalArgumentException("no host, or a port that is not a number");
			}
			return RedisURI.create(uri);
		}
		catch (URISyntaxException | IllegalArgumentException ex) {
			// their messages quote the URL, password and all: the reason is kept without it, the exception is not
			throw new IllegalArgumentException(
					where + " is not a valid Redis URL: " + withoutUserInfo(String.valueOf(ex.getMessage()), url) + hint);
		}
	}

	/** {@code message} with the user and password of {@code url} masked. */
	private static String withoutUserInfo(String message, String url) {
		int start = url.indexOf("://") + 3;
		int end = url.lastIndexOf('@');
		return (end > start) ? message.replace(url.substring(start, end), "******") : message;
	}

	private static RedisStandaloneConfiguration standalone(RedisURI server) {
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(server.getHost(),
				server.getPort());
		configuration.setDatabase(server.getDatabase());
		// the credentials provider, not getUsername() and getPassword(), which Lettuce 7 removed
		RedisCredentials credentials = server.getCredentialsProvider().resolveCredentials().block();
		if (credentials != null && credentials.hasUsername()) {
			configuration.setUsername(credentials.getUsername());
		}
		if (credentials != null && credentials.hasPassword()) {
			configuration.setPassword(RedisPassword.of(credentials.getPassword()));
		}
		return configuration;
	}

	private static LettuceClientConfiguration client(RedisURI server, Duration commandTimeout,
			ClientResources resources) {
		ClientOptions options = ClientOptions.builder()
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).build())
			.build();
		LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
			.commandTimeout(commandTimeout)
			.clientOptions(options)
			.clientResources(resources);
		if (server.isSsl()) {
			client.useSsl();
		}
		return client.build();
	}

}
