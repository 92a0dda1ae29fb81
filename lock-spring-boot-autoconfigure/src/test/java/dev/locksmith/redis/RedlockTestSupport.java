package dev.locksmith.redis;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.LockOptions;

/** Five real servers for a Redlock test class, and a fixture whose services are closed after each test. */
abstract class RedlockTestSupport {

	static final LockOptions LONG = LockOptions.ofTtl(Duration.ofSeconds(30));

	/** The owner token of a lock set by some other instance. */
	static final String FOREIGN = "another-instance:0";

	@RegisterExtension
	static final RedisServers servers = new RedisServers();

	final RedlockFixture redlock = new RedlockFixture();

	@AfterEach
	void closeFixture() throws Exception {
		this.redlock.close();
	}

}
