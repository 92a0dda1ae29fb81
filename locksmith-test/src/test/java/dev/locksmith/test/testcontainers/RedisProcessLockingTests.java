package dev.locksmith.test.testcontainers;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.locksmith.testing.RedisServerExtension;

/** The same tests on a {@code redis-server} process of the project's harness, where no Docker engine answers (as in CI). */
@SpringBootTest(classes = RedisLockingTests.Application.class)
@ExtendWith(Docker.Absent.class)
@Tag("slow")
class RedisProcessLockingTests extends RedisLockingTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@DynamicPropertySource
	static void connectToTheProcess(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.port", () -> redisServer.server().port());
	}

}
