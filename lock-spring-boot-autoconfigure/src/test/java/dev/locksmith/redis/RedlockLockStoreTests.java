package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.testing.RedisServer;

import static dev.locksmith.redis.RedlockFixture.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The Redlock store as an application without Spring Boot wires it: built, started, used and closed by hand. */
class RedlockLockStoreTests extends RedlockTestSupport {

	@Test
	void locksOnAMajorityWithoutAnApplicationContext() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		try (RedlockLockStore store = RedlockLockStore.builder(RedisServers.urls(nodes))
			.nodeTimeout(RedlockFixture.NODE_TIMEOUT)
			.build();
				DefaultLockService locks = DefaultLockService.builder(store)
					.build()) {
			store.start();
			try (LockHandle held = locks.acquire("orders:1", LONG)) {
				assertThat(nodes).allSatisfy(
						(node) -> assertThat(node.command("EXISTS", KEYS.lockKey("orders:1"))).isEqualTo("1"));
				assertThat(this.redlock.service(nodes).tryAcquire("orders:1", LONG)).as("held for another instance")
					.isEmpty();
			}
			assertThat(store.administration().storedLocks(10).join()).isEmpty();
		}
	}

	@Test
	void namesTheSettingOfABadNodeUrl() {
		RedlockLockStore.Builder builder = RedlockLockStore
			.builder(List.of("redis://a:1", "localhost:6379", "redis://c:1"))
			.source("app.redlock.nodes");
		assertThatIllegalArgumentException().isThrownBy(builder::build)
			.withMessageStartingWith("app.redlock.nodes[1] must be a redis:// or rediss:// URL");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.nodeTimeout(Duration.ZERO))
			.withMessage("nodeTimeout must be at least 1ms, was PT0S");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.maxReconnectDelay(Duration.ofNanos(999_999)))
			.withMessage("maxReconnectDelay must be at least 1ms, was PT0.000999999S");
	}

}
