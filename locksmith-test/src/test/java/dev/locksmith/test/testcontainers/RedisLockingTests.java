package dev.locksmith.test.testcontainers;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

import static dev.locksmith.test.LockAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application locking on a real Redis: in a Testcontainers container where a Docker engine
 * answers, else in a {@code redis-server} process that the project's harness starts.
 */
abstract class RedisLockingTests {

	private static final LockOptions OPTIONS = LockOptions.ofTtl(Duration.ofSeconds(30));

	@Autowired
	private LockService locks;

	@Autowired
	private StringRedisTemplate redis;

	@Test
	void theApplicationLocksOnTheRedisItIsConnectedTo() throws Exception {
		try (LockHandle held = this.locks.acquire("orders:1", OPTIONS)) {
			assertThat(this.redis.hasKey("lock:{orders:1}")).isTrue();
			assertThat(this.locks.tryAcquire("orders:1", OPTIONS)).as("another owner is refused").isEmpty();
		}
		assertThat(this.redis.hasKey("lock:{orders:1}")).isFalse();
		assertThat(this.locks).isFree("orders:1");
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
