package dev.locksmith.aop;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Key expressions that give values of odd types: each call either locks exactly the keys one would
 * read off the value, as Redis lists them while the method runs, or is refused with an
 * {@link IllegalArgumentException} that names the method and the expression, and the method does not
 * run. Never a wrong lock, never a Redis error.
 */
class KeyExpressionFuzzTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private ApplicationContextRunner runner;

	@BeforeEach
	void configure() {
		this.runner = AspectContexts.onRedis(redisServer.server()).withUserConfiguration(OddKeysConfiguration.class);
	}

	static Stream<Arguments> lockedValues() {
		return Stream.of(Arguments.of("a string", "x", List.of("x")),
				Arguments.of("a number", 42L, List.of("42")),
				Arguments.of("an Optional", Optional.of("x"), List.of("x")),
				Arguments.of("a list", List.of("x", "y"), List.of("x", "y")),
				Arguments.of("a set with a duplicate-looking value", Set.of("x", "x "), List.of("x", "x ")),
				Arguments.of("an int array", new int[] { 1, 2 }, List.of("1", "2")),
				Arguments.of("a string array", new String[] { "x", "y" }, List.of("x", "y")),
				Arguments.of("an enum", Thread.State.NEW, List.of("NEW")),
				Arguments.of("braces and colons", List.of("}x{", "a:b"), List.of("}x{", "a:b")),
				Arguments.of("a long text", "k".repeat(10_000), List.of("k".repeat(10_000))));
	}

	static Stream<Arguments> refusedValues() {
		return Stream.of(Arguments.of("null", null), Arguments.of("an empty Optional", Optional.empty()),
				Arguments.of("an array of nulls", new Object[] { null, null }),
				Arguments.of("a list with a null", Arrays.asList("x", null)),
				Arguments.of("an empty list", List.of()), Arguments.of("an empty array", new String[0]),
				Arguments.of("a blank string", " "), Arguments.of("a map", Map.of("x", "y")),
				Arguments.of("nested lists", List.of(List.of("x"), List.of("y"))),
				Arguments.of("a list of arrays", List.of((Object) new String[] { "x" })),
				Arguments.of("a list of Optionals", List.of(Optional.of("x"))),
				Arguments.of("an Optional of an Optional", Optional.of(Optional.of("x"))),
				Arguments.of("an array of lists", new Object[] { List.of("x") }),
				Arguments.of("an object without toString()", new Object()),
				Arguments.of("an unpaired surrogate", "\uD800"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("lockedValues")
	void aValueLocksTheKeysReadOffIt(String description, Object value, Collection<String> expectedKeys) {
		this.runner.run((context) -> {
			OddKeys oddKeys = context.getBean(OddKeys.class);
			oddKeys.lock(value);
			assertThat(oddKeys.lockKeysDuringTheCall()).as("the lock keys in Redis while the method ran")
				.containsExactlyInAnyOrderElementsOf(
						expectedKeys.stream().map((key) -> TestLockKeys.lockKey("odd:" + key)).toList());
		});
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("refusedValues")
	void anOddValueIsRefusedNamingTheMethodAndTheExpression(String description, Object value) {
		this.runner.run((context) -> {
			OddKeys oddKeys = context.getBean(OddKeys.class);
			assertThatIllegalArgumentException().isThrownBy(() -> oddKeys.lock(value))
				.withMessageContaining("lock(");
			assertThat(oddKeys.lockKeysDuringTheCall()).as("the method did not run").isNull();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OddKeysConfiguration {

		@Bean
		OddKeys oddKeys() {
			return new OddKeys();
		}

	}

	/** One locked method whose key is whatever it is given. */
	static class OddKeys {

		private final AtomicReference<List<String>> lockKeysDuringTheCall = new AtomicReference<>();

		@DistributedLock(name = "odd", key = "#value", ttl = "30s")
		public void lock(Object value) {
			String found = redisServer.server().command("KEYS", TestLockKeys.lockKeyPattern());
			this.lockKeysDuringTheCall.set(found.isEmpty() ? List.of() : List.of(found.split("\n")));
		}

		/** The lock keys that Redis held while the method ran, or null when it did not run. */
		public List<String> lockKeysDuringTheCall() {
			return this.lockKeysDuringTheCall.get();
		}

	}

}
