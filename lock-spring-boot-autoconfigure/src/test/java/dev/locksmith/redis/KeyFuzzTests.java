package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Odd keys through the programmatic API: every char value up to 0x2FF, surrogates, hash-tag and
 * pattern characters, empty, blank and huge keys, and random text. Each must be refused with an
 * {@link IllegalArgumentException}, or be a lock of its own: never a Redis error, never a lock that
 * another key shares.
 */
class KeyFuzzTests {

	private static final LockOptions ONCE = LockOptions.ofTtl(Duration.ofSeconds(30));

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final List<AutoCloseable> resources = new ArrayList<>();

	private DefaultLockService owner;

	private DefaultLockService otherOwner;

	@BeforeEach
	void startServices() {
		this.owner = service();
		this.otherOwner = service();
	}

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void everyKeyIsRefusedClearlyOrIsALockOfItsOwn() throws Exception {
		Map<String, LockHandle> held = new LinkedHashMap<>();
		for (String key : oddKeys()) {
			Optional<LockHandle> handle;
			try {
				handle = this.owner.tryAcquire(key, ONCE);
			}
			catch (IllegalArgumentException ex) {
				assertThat(ex.getMessage()).as("the reason for refusing %s", visible(key)).isNotBlank();
				continue;
			}
			if (handle.isEmpty()) {
				fail("The fresh key %s was busy: it shares a lock with one of %s", visible(key),
						held.keySet().stream().map(KeyFuzzTests::visible).toList());
			}
			held.put(key, handle.get());
		}
		assertThat(held).as("keys that are locks").hasSizeGreaterThan(500);
		for (String key : held.keySet()) {
			assertThat(this.otherOwner.tryAcquire(key, ONCE)).as("another owner of %s", visible(key)).isEmpty();
		}
		for (Map.Entry<String, LockHandle> lock : held.entrySet()) {
			lock.getValue().close();
			Optional<LockHandle> taken = this.otherOwner.tryAcquire(lock.getKey(), ONCE);
			assertThat(taken).as("%s, free while later keys are still held", visible(lock.getKey())).isPresent();
			taken.get().close();
		}
	}

	private static Set<String> oddKeys() {
		Set<String> keys = new LinkedHashSet<>(List.of("", " ", "\t", "\n", "{", "}", "{}", "}{", "{a}", "a}", "}a",
				"{a", "a{b}c", "*", "?", "[a]", ":", "a:b", "a::b", "\\", "\"", "'", "%s", "\r\n", "\uD800", "\uDFFF",
				"\uDFFF\uD800", "a\uD800b", "\uD83D\uDD12", "\uFFFF", "\uFEFF", "x".repeat(65_536)));
		for (char c = 0; c < 0x300; c++) {
			keys.add(String.valueOf(c));
			keys.add("k" + c);
		}
		Random random = new Random(42);
		for (int i = 0; i < 200; i++) {
			char[] chars = new char[1 + random.nextInt(16)];
			for (int j = 0; j < chars.length; j++) {
				chars[j] = (char) random.nextInt(Character.MAX_VALUE + 1);
			}
			keys.add(new String(chars));
		}
		return keys;
	}

	private static String visible(String key) {
		StringBuilder text = new StringBuilder("'");
		key.chars().limit(40).forEach((c) -> text.append((c >= 0x20 && c < 0x7F) ? String.valueOf((char) c)
				: String.format("\\u%04X", c)));
		return text.append((key.length() > 40) ? "...' (" + key.length() + " chars)" : "'").toString();
	}

	private DefaultLockService service() {
		LettuceConnectionFactory connections = redis.server().connectionFactory();
		RedisLockBackend backend = new RedisLockBackend(connections, new RedisLockKeys("lock:"));
		DefaultLockService service = DefaultLockService.builder(backend).build();
		this.resources.add(0, connections::destroy);
		this.resources.add(0, service);
		return service;
	}

}
