package dev.locksmith.actuate;

import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.testing.RedisServerExtension;

/** The held locks by mode in the {@code locks} health, over HTTP, on a real Redis. */
class RedisHeldByModeHealthHttpTests extends HeldByModeHealthHttpTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@Override
	protected String[] storeProperties() {
		return new String[] { "spring.data.redis.port=" + redis.server().port() };
	}

}
