package dev.locksmith.test.testcontainers;

import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/**
 * Redis in a container through {@link RedisContainerConfiguration}, as users import it; skipped, with the
 * reason printed, without Docker. CI builds the image locally ({@code .ci/docker-images}).
 */
@SpringBootTest(classes = RedisLockingTests.Application.class)
@Import(RedisContainerConfiguration.class)
@ExtendWith(Docker.Required.class)
class RedisContainerConfigurationTests extends RedisLockingTests {

}
