package dev.locksmith.readme;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The configuration guide's stores without Spring Boot lock, and free their lock when done. */
class StandaloneStoresTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@Test
	void theRedisStoreLocksUnderItsPrefixWithoutSpringBootAndFreesTheLock() throws Exception {
		AtomicReference<String> heldWhileWorking = new AtomicReference<>();

		StandaloneRedisLocks.lockOnRedis("127.0.0.1", redisServer.server().port(),
				() -> heldWhileWorking.set(redisServer.server().command("EXISTS", "orders:{invoice:42}")));

		assertThat(heldWhileWorking).hasValue("1");
		assertThat(redisServer.server().command("EXISTS", "orders:{invoice:42}")).isEqualTo("0");
	}

	@Test
	void theGuidesRedlockStoreIsBuiltFromUnreachableUrlsWithoutConnecting() {
		// none of the three servers exists: a build that connected would fail or hang here
		StandaloneRedlockStore.redlock().close();
	}

}
