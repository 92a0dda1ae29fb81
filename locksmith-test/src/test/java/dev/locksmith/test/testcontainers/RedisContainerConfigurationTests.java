package dev.locksmith.test.testcontainers;

import org.junit.jupiter.api.condition.EnabledIf;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/** Redis in a container through {@link RedisContainerConfiguration}, as users import it; skipped without Docker. */
@SpringBootTest(classes = RedisLockingTests.Application.class)
@Import(RedisContainerConfiguration.class)
@EnabledIf(value = "dev.locksmith.test.testcontainers.Docker#isAvailable", disabledReason = "no Docker engine answers")
class RedisContainerConfigurationTests extends RedisLockingTests {

}
