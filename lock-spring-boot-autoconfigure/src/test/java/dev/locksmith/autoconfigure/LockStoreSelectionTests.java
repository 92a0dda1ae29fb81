package dev.locksmith.autoconfigure;

import java.io.InputStream;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.locksmith.test.inmemory.InMemoryLockBackend;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** How {@code locksmith.store} selects the store, and how a store that cannot be set up stops the startup. */
class LockStoreSelectionTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class));

	private ApplicationContextRunner onRedis() {
		return this.runner.withPropertyValues("spring.data.redis.port=" + redisServer.server().port());
	}

	@Test
	void redisIsTheStoreWhenNoneIsSelected() {
		onRedis().run((context) -> {
			assertThat(context).getBean(LockStore.class).isSameAs(context.getBean(RedisLockStore.class));
			try (LockHandle handle = context.getBean(LockService.class)
				.acquire("orders:1", LockOptions.ofTtl(Duration.ofSeconds(30)))) {
				assertThat(redisServer.server().command("EXISTS", "lock:{orders:1}")).isEqualTo("1");
			}
		});
	}

	@Test
	void redisIsSelectedByAnySpellingTheBinderAccepts() {
		onRedis().withPropertyValues("locksmith.store=REDIS")
			.run((context) -> assertThat(context).getBean(LockStore.class).isSameAs(context.getBean(RedisLockStore.class)));
	}

	@Test
	void theMetadataOffersEveryStoreAnIdeCanComplete() throws Exception {
		JsonNode metadata;
		try (InputStream json = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			metadata = JsonMapper.builder().build().readTree(json);
		}
		assertThat(metadata.get("hints").values())
			.filteredOn((hint) -> hint.get("name").asString().equals("locksmith.store"))
			.singleElement()
			.satisfies((hint) -> assertThat(hint.get("values").values())
				.extracting((value) -> value.get("value").asString())
				.containsExactly("redis", "redlock", "in-memory", "jdbc"));
	}

	@Test
	void anUnknownStoreStopsTheStartupNamingThePropertyAndTheValue() {
		onRedis().withPropertyValues("locksmith.store=zookeeper").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.hasStackTraceContaining("Failed to bind properties under 'locksmith.store'")
				.hasStackTraceContaining("zookeeper");
		});
	}

	@Test
	void theInMemoryStoreWithoutTheTestModuleStopsTheStartupSayingWhatItNeeds() {
		onRedis().withClassLoader(new FilteredClassLoader(InMemoryLockBackend.class))
			.withPropertyValues("locksmith.store=in-memory")
			.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.hasStackTraceContaining("No LockService could be set up for locksmith.store=in-memory")
				.hasStackTraceContaining("dev.locksmith:locksmith-test");
		});
	}

	@Test
	void anExplicitRedisStoreWithoutARedisConnectionFactoryStopsTheStartup() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LocksmithAutoConfiguration.class))
			.withPropertyValues("locksmith.store=redis")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.hasStackTraceContaining("No LockService could be set up for locksmith.store=redis")
					.hasStackTraceContaining("RedisConnectionFactory");
			});
	}

}
