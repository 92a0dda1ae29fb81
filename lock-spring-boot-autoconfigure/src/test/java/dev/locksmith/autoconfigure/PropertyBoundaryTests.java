package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.autoconfigure.web.LocksmithWebAutoConfiguration;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Every {@code locksmith.*} duration at its limits (0, 1ms, negative, the longest the engine counts, one
 * day past it, past what a Duration holds, malformed, empty), the key prefix and the cohort bound: the
 * startup fails naming the property, or the application starts and its locks still exclude a second owner.
 */
class PropertyBoundaryTests {

	/** What a row expects when the application starts. */
	private static final String STARTS = "starts";

	/** What a row expects when the application starts but a lock call may outlast the Redis timeout. */
	private static final String STARTS_OR_FAILS_CLOSED = "starts*";

	/** The values every duration is tried with, in the order of the columns of {@link #OUTCOMES}. */
	private static final List<String> VALUES = List.of("0", "1ms", "-1ms", "106751d", "106752d", "999999999999999d",
			"soon", "");

	/**
	 * What each duration does with each of {@link #VALUES}: {@code starts}; {@code starts*}, starts but a lock
	 * call may outlast the timeout and fail closed; {@code over}, refused as longer than the engine counts;
	 * {@code unbound}, Boot's bind failure; otherwise the engine's reason.
	 */
	private static final String OUTCOMES = """
			default-ttl                 | ttl must be at least 1ms               | starts  | ttl must be at least 1ms               | starts | over   | unbound | unbound | starts
			default-wait-time           | starts                                 | starts  | waitTime must not be negative          | starts | over   | unbound | unbound | starts
			redis-timeout               | storeTimeout must be at least 1ms      | starts* | storeTimeout must be at least 1ms      | starts | over   | unbound | unbound | starts
			drift-allowance             | starts                                 | starts  | driftAllowance must not be negative    | starts | over   | unbound | unbound | starts
			wait.recheck-interval       | recheckInterval must be at least 1ms   | starts  | recheckInterval must be at least 1ms   | starts | over   | unbound | unbound | starts
			wait.claim-lease            | starts                                 | starts  | starts                                 | starts | over   | unbound | unbound | starts
			web.unavailable-retry-after | starts                                 | starts  | starts                                 | starts | starts | unbound | unbound | starts
			redis.max-reconnect-delay   | maxReconnectDelay must be at least 1ms | starts  | maxReconnectDelay must be at least 1ms | starts | over   | unbound | unbound | starts
			redlock.node-timeout        | nodeTimeout must be at least 1ms       | starts* | nodeTimeout must be at least 1ms       | starts | over   | unbound | unbound | starts
			""";

	private static final LockOptions WAIT = LockOptions.ofTtl(Duration.ofSeconds(30)).withWaitTime(Duration.ofMinutes(1));

	/** The property whose rows run on the Redlock store, on {@link #redis} and two more servers. */
	private static final String REDLOCK_ROW = "redlock.node-timeout";

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static RedisServer redis;

	/** The two servers that make a Redlock quorum of three with {@link #redis}. */
	private static List<RedisServer> moreRedlockServers;

	@BeforeAll
	static void findRedis() {
		redis = redisServer.server();
		moreRedlockServers = List.of(RedisServer.start(), RedisServer.start());
	}

	@AfterAll
	static void stopRedlockServers() {
		moreRedlockServers.forEach(RedisServer::close);
	}

	static Stream<Arguments> durations() {
		return OUTCOMES.lines().flatMap((line) -> {
			List<String> cells = Stream.of(line.split("\\|")).map(String::trim).toList();
			return IntStream.range(0, VALUES.size())
				.mapToObj((i) -> arguments(cells.get(0), VALUES.get(i), cells.get(i + 1)));
		});
	}

	@ParameterizedTest(name = "locksmith.{0}={1}: {2}")
	@MethodSource("durations")
	void aDurationAtItsLimitStopsTheStartupNamingItOrLocksAsUsual(String property, String value, String outcome) {
		String name = "locksmith." + property;
		runner().withPropertyValues(REDLOCK_ROW.equals(property) ? redlockStore() : new String[0])
			.withPropertyValues(name + "=" + value)
			.run((context) -> {
			switch (outcome) {
				case STARTS -> {
					assertThat(context).hasNotFailed();
					locksExclusively(context.getBean(LockService.class), name + "=" + value);
				}
				case STARTS_OR_FAILS_CLOSED -> {
					assertThat(context).hasNotFailed();
					try {
						locksExclusively(context.getBean(LockService.class), name + "=" + value);
					}
					catch (LockUnavailableException ex) {
						assertThat(ex).hasMessageContaining("within " + value);
					}
					catch (LockBusyException ex) {
						// a Redlock server that granted after its 1ms ran out keeps the lock until its lease ends
						assertThat(property).isEqualTo(REDLOCK_ROW);
					}
				}
				default -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).hasStackTraceContaining(name)
						.hasStackTraceContaining(reason(name, outcome));
				}
			}
		});
	}

	/** The Redlock store on {@link #redis} and {@link #moreRedlockServers}, so that a lock is on each. */
	private static String[] redlockStore() {
		return new String[] { "locksmith.store=redlock", "locksmith.redlock.nodes=" + String.join(",",
				Stream.concat(Stream.of(redis), moreRedlockServers.stream())
					.map((server) -> "redis://127.0.0.1:" + server.port())
					.toList()) };
	}

	private static String reason(String property, String outcome) {
		return switch (outcome) {
			case "over" -> "must be at most 106751d";
			case "unbound" -> "Failed to bind properties under '" + property + "'";
			default -> outcome;
		};
	}

	/**
	 * Key prefixes with blanks, colons, Unicode, SCAN pattern characters and 10,000 characters are used as
	 * given; braces, which would move the cluster hash tag, stop the startup. The lock under an odd prefix
	 * still excludes a second owner on the same prefix, and is its own apart from another prefix's lock.
	 */
	@ParameterizedTest(name = "locksmith.key-prefix=''{0}'': {1}")
	@MethodSource("keyPrefixes")
	void aKeyPrefixIsUsedAsGivenOrStopsTheStartupNamingIt(String prefix, String outcome) {
		runner().withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("untrimmed", Map.of("locksmith.key-prefix", prefix))))
			.run((context) -> {
			if (!STARTS.equals(outcome)) {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasStackTraceContaining("locksmith.key-prefix")
					.hasStackTraceContaining(outcome);
				return;
			}
			LockOptions held = LockOptions.ofTtl(Duration.ofSeconds(30));
			try (LockHandle first = context.getBean(LockService.class).acquire("job", held);
					SecondOwner samePrefix = new SecondOwner(prefix);
					SecondOwner otherPrefix = new SecondOwner("other:")) {
				assertThat(redis.command("EXISTS", prefix + "{job}")).isEqualTo("1");
				assertThat(samePrefix.tryAcquire("job")).as("a second owner on the same prefix").isEmpty();
				assertThat(otherPrefix.tryAcquire("job")).as("an owner on another prefix").isPresent();
				assertThat(context.getBean(LockAdministration.class).storedLocks(10)).extracting(StoredLock::key)
					.contains("job");
			}
		});
	}

	static Stream<Arguments> keyPrefixes() {
		return Stream.of(arguments("", STARTS), arguments(" ", STARTS), arguments("a b:", STARTS),
				arguments("a:b::", STARTS), arguments("\u043a\u043b\u044e\u0447:\uD83D\uDD12:", STARTS),
				arguments("*?[x]\\:", STARTS), arguments("x".repeat(10_000), STARTS),
				arguments("{", "must not contain '{' or '}'"), arguments("}", "must not contain '{' or '}'"),
				arguments("{}", "must not contain '{' or '}'"), arguments("a{b}:", "must not contain '{' or '}'"));
	}

	/**
	 * The cohort bound reaches the store: with 0 the other process's waiter, first in the queue, is served
	 * first; with 1 or more the application's own waiter behind it is; a negative bound or a word stops the
	 * startup naming the property.
	 */
	@ParameterizedTest(name = "locksmith.wait.cohort-passes={0}: {1}")
	@CsvSource({ "0, remote", "1, local", "2147483647, local", "-1, cohortPasses must not be negative",
			"many, unbound" })
	void theCohortBoundPassesTheLockToTheApplicationsOwnWaiterOrStopsTheStartupNamingIt(String value, String outcome) {
		String name = "locksmith.wait.cohort-passes";
		runner().withPropertyValues(name + "=" + value, "locksmith.instance-id=app").run((context) -> {
			if (!List.of("remote", "local").contains(outcome)) {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasStackTraceContaining(name)
					.hasStackTraceContaining(reason(name, outcome));
				return;
			}
			LockService locks = context.getBean(LockService.class);
			List<String> served = new CopyOnWriteArrayList<>();
			try (SecondOwner remote = new SecondOwner("lock:")) {
				LockHandle held = locks.acquire("hot", WAIT);
				CompletableFuture<Void> remoteWaiter = CompletableFuture
					.runAsync(() -> remote.acquireAndRecord("hot", served, "remote"));
				await().until(() -> redis.command("LLEN", "lock:queue:{hot}").equals("1"));
				CompletableFuture<Void> localWaiter = CompletableFuture.runAsync(() -> {
					try (LockHandle handle = locks.acquire("hot", WAIT)) {
						served.add("local");
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				});
				await().until(() -> redis.command("LLEN", "lock:queue:{hot}").equals("2"));
				held.close();
				CompletableFuture.allOf(remoteWaiter, localWaiter).get(1, TimeUnit.MINUTES);
				assertThat(served).as("served first").first().isEqualTo(outcome);
			}
		});
	}

	/** A lock cycle with the configured defaults, then a held lock that a second owner cannot take. */
	private static void locksExclusively(LockService locks, String key) throws InterruptedException {
		try (LockHandle defaults = locks.acquire(key, locks.options())) {
			assertThat(defaults.fencingToken()).isPositive();
		}
		LockOptions held = locks.options().withTtl(Duration.ofSeconds(30));
		try (LockHandle first = locks.acquire(key, held)) {
			Optional<LockHandle> second = locks.tryAcquire(key, held.withWaitTime(Duration.ZERO));
			second.ifPresent(LockHandle::close);
			assertThat(second).as("a second owner of a held lock").isEmpty();
			assertThat(redis.command("EXISTS", "lock:{" + key + "}")).isEqualTo("1");
		}
	}

	/** Another instance's lock service on {@code prefix}. */
	private static final class SecondOwner implements AutoCloseable {

		private final LettuceConnectionFactory connections = redis.connectionFactory();

		private final DefaultLockService locks;

		SecondOwner(String prefix) {
			this.locks = DefaultLockService.builder(RedisLockStore.builder(this.connections).keyPrefix(prefix).build())
				.build();
		}

		/** Waits for the lock of {@code key} and adds {@code name} to {@code served} while holding it. */
		void acquireAndRecord(String key, List<String> served, String name) {
			try (LockHandle handle = this.locks.acquire(key, WAIT)) {
				served.add(name);
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		}

		Optional<LockHandle> tryAcquire(String key) throws InterruptedException {
			Optional<LockHandle> taken = this.locks.tryAcquire(key, LockOptions.ofTtl(Duration.ofSeconds(30)));
			taken.ifPresent(LockHandle::close);
			return taken;
		}

		@Override
		public void close() {
			this.locks.close();
			this.connections.destroy();
		}

	}

	private static ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class,
					LocksmithWebAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + redis.port());
	}

}
