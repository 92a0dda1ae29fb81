package dev.locksmith.test.readme;

// tag::embedded-redis-test[]
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest
@DirtiesContext   // close the application with the class, while its Redis still runs
class StockRedisTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();   // a redis-server process, emptied before each test

	@DynamicPropertySource
	static void redisPort(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.port", () -> redis.server().port());
	}

	@Autowired
	private LockService locks;

	@Test
	void theLockLivesInRedis() throws Exception {
		try (LockHandle held = this.locks.acquire("stock:apple", LockOptions.ofTtl(Duration.ofSeconds(30)))) {
			assertThat(redis.server().command("EXISTS", "lock:{stock:apple}")).isEqualTo("1");
		}
	}

}
// end::embedded-redis-test[]
