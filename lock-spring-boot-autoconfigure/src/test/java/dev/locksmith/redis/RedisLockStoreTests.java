package dev.locksmith.redis;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The Redis store as an application without Spring Boot wires it: built, started, used and closed by hand. */
class RedisLockStoreTests {

	private static final LockOptions LONG = LockOptions.ofTtl(Duration.ofSeconds(30));

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@Test
	void locksUnderItsKeyPrefixWithoutAnApplicationContext() throws Exception {
		RedisServer redis = redisServer.server();
		LettuceConnectionFactory connections = redis.connectionFactory();
		try (RedisLockStore store = RedisLockStore.builder(connections).keyPrefix("standalone:").build();
				RedisLockStore otherInstance = RedisLockStore.builder(connections).keyPrefix("standalone:").build();
				DefaultLockService locks = DefaultLockService.builder(store)
					.build();
				DefaultLockService rival = DefaultLockService.builder(otherInstance).build()) {
			store.start();
			try (LockHandle held = locks.acquire("orders:1", LONG)) {
				assertThat(redis.command("EXISTS", "standalone:{orders:1}")).isEqualTo("1");
				Optional<LockHandle> refused = rival.tryAcquire("orders:1", LONG);
				assertThat(refused).as("held for the other instance too").isEmpty();
			}
			assertThat(redis.command("EXISTS", "standalone:{orders:1}")).isEqualTo("0");
		}
		finally {
			connections.destroy();
		}
	}

	@Test
	void startsTheNotificationsItMadeWhetherMadeBeforeOrAfterItStarted() {
		LettuceConnectionFactory connections = redisServer.server().connectionFactory();
		try (RedisLockStore before = RedisLockStore.builder(connections).build();
				RedisLockStore after = RedisLockStore.builder(connections).build()) {
			RedisReleaseNotifications madeBefore = (RedisReleaseNotifications) before.notifications();
			assertThat(madeBefore.isRunning()).as("not before the store starts").isFalse();
			before.start();
			after.start();
			RedisReleaseNotifications madeAfter = (RedisReleaseNotifications) after.notifications();
			assertThat(madeBefore.isRunning()).isTrue();
			assertThat(madeAfter.isRunning()).isTrue();
			before.stop();
			assertThat(madeBefore.isRunning()).isFalse();
			assertThat(before.notifications()).as("made once").isSameAs(madeBefore);
		}
		finally {
			connections.destroy();
		}
	}

	@Test
	void closingStopsWhatItMade() {
		LettuceConnectionFactory connections = redisServer.server().connectionFactory();
		RedisLockStore store = RedisLockStore.builder(connections).build();
		RedisReleaseNotifications notifications = (RedisReleaseNotifications) store.notifications();
		store.start();
		store.close();
		assertThat(store.isRunning()).isFalse();
		assertThat(notifications.isRunning()).isFalse();
		connections.destroy();
	}

	@Test
	void refusesAPrefixThatBreaksTheHashTagAndAClaimLeaseUnder1ms() {
		RedisLockStore.Builder builder = RedisLockStore.builder(new LettuceConnectionFactory());
		assertThatIllegalArgumentException().isThrownBy(() -> builder.keyPrefix("app{1}:"))
			.withMessage("key prefix must not contain '{' or '}', was 'app{1}:'");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.claimLease(Duration.ZERO))
			.withMessage("claimLease must be at least 1ms, was PT0S");
	}

	@Test
	void anEngineRefusesAStoreWhoseClaimLeaseEndsBeforeTwoOfItsRechecks() {
		LettuceConnectionFactory connections = new LettuceConnectionFactory();
		try (RedisLockStore store = RedisLockStore.builder(connections).claimLease(Duration.ofMillis(500)).build()) {
			DefaultLockService.Builder engine = DefaultLockService.builder(store)
				.recheckInterval(Duration.ofSeconds(1));
			assertThatIllegalArgumentException().isThrownBy(engine::build)
				.withMessageContaining("claim lease (PT0.5S)")
				.withMessageContaining("recheckInterval PT1S")
				.withMessageContaining("at least PT2S");
			try (DefaultLockService built = engine.recheckInterval(Duration.ofMillis(250)).build()) {
				assertThat(built.heldLocks()).as("two re-checks fit in the claim").isEmpty();
			}
		}
	}

}
