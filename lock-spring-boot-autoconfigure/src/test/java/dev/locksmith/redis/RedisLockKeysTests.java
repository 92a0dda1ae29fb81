package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The Redis key layout: one hash slot per lock whatever its key, no two keys sharing a Redis key. */
class RedisLockKeysTests {

	private static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	@ParameterizedTest
	@ValueSource(strings = { "}x", "}", "{", "{}", "a}b", "{a}", "x{y}z", "%7D", "100%" })
	void everyRedisKeyOfALockSharesItsHashSlotWhateverTheKey(String key) {
		assertThat(Stream.of(KEYS.lockKey(key), KEYS.fenceKey(key), KEYS.queueKey(key), KEYS.deadlinesKey(key),
				KEYS.releaseChannel(key))
			.map(ClusterSlotHashUtil::calculateSlot)
			.distinct()).as("hash slots of the keys of lock '%s'", key).hasSize(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "order-1", "}x", "{a}", "100%", "é", "заказ-1", "订单", "😀" })
	void theNamesAScriptCallSendsAreTheNamesInUtf8(String key) {
		RedisLockKeys keys = new RedisLockKeys("ключ:");
		List<Function<String, String>> names = List.of(keys::lockKey, keys::fenceKey, keys::queueKey, keys::deadlinesKey,
				keys::holdersKey, keys::releaseChannel);
		for (RedisLockKeys.Kind kind : RedisLockKeys.Kind.values()) {
			assertThat(keys.name(kind, RedisLockKeys.tag(key))).as("%s of '%s'", kind, key)
				.isEqualTo(names.get(kind.ordinal()).apply(key).getBytes(StandardCharsets.UTF_8));
		}
	}

	@Test
	void noKeyCanEndTheHashTagEarly() {
		assertThat(ClusterSlotHashUtil.calculateSlot(KEYS.lockKey("a}b")))
			.as("'a}b' is not placed by its prefix 'a'")
			.isNotEqualTo(ClusterSlotHashUtil.calculateSlot(KEYS.lockKey("a}c")));
	}

	@Test
	void differentKeysNeverShareARedisKey() {
		List<String> keys = List.of("}", "%7D", "%257D", "{", "%7B", "%", "%25", "a", "fence:{a}", "a}", "a%7D");
		assertThat(keys.stream().map(KEYS::lockKey).distinct()).hasSameSizeAs(keys);
		assertThat(keys.stream().flatMap((key) -> Stream.of(KEYS.lockKey(key), KEYS.fenceKey(key),
				KEYS.queueKey(key), KEYS.deadlinesKey(key))).distinct()).hasSize(keys.size() * 4);
	}

	@ParameterizedTest
	@ValueSource(strings = { "}x", "{a}", "100%", "%7D", "account:bob" })
	void lockKeysAndChannelsReadBackToTheApplicationsKey(String key) {
		assertThat(KEYS.keyOf(KEYS.lockKey(key))).isEqualTo(key);
		assertThat(KEYS.keyOfChannel(KEYS.releaseChannel(key))).isEqualTo(key);
	}

	@ParameterizedTest
	@ValueSource(strings = { "lock:{a}b}", "lock:{%7}", "lock:{%}", "lock:{}", "lock:fence:{a}", "other:{a}" })
	void aRedisKeyThatLocksmithDidNotWriteIsNotReadAsALock(String redisKey) {
		assertThatIllegalArgumentException().isThrownBy(() -> KEYS.keyOf(redisKey))
			.withMessageContaining("'" + redisKey + "' is not a lock key under prefix 'lock:'");
	}

	@Test
	void theScanPatternTakesThePrefixLiterally() {
		assertThat(new RedisLockKeys("app[1]*:").lockKeyPattern()).isEqualTo("app\\[1\\]\\*:{*");
	}

}
