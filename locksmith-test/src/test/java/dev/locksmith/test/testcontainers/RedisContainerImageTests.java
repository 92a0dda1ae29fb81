package dev.locksmith.test.testcontainers;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** The image {@link RedisContainerConfiguration} runs: the default, or the one a property names. Needs no Docker. */
class RedisContainerImageTests {

	@Test
	void runsTheDefaultImageUnlessAPropertyNamesAnother() {
		assertThat(RedisContainerConfiguration.image(new MockEnvironment()).asCanonicalNameString())
			.isEqualTo("redis:7.4-alpine");
	}

	@Test
	void runsTheImageThePropertyNames() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty(RedisContainerConfiguration.IMAGE_PROPERTY, "registry.example.com/mirror/redis:7.2");
		assertThat(RedisContainerConfiguration.image(environment).asCanonicalNameString())
			.isEqualTo("registry.example.com/mirror/redis:7.2");
	}

}
