package dev.locksmith.redis;

import java.time.Duration;

import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

/** Read locks and permits ({@link SharedLockTests}) on one real {@code redis-server}. */
class ReadWriteLockTests extends SharedLockTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@Override
	LockEngines startEngines(int count, Duration recheckInterval) {
		return new LockEngines(redisServer.server(), count, recheckInterval);
	}

	@Override
	RedisServer nodeServing(String key) {
		return redisServer.server();
	}

}
