package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.redis.RedlockLockStore;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stores' background work runs in the application context's lifecycle: nothing starts in a bean
 * method, and it starts before and stops after the web server, whose phases are from
 * {@code DEFAULT_PHASE - 2048} up.
 */
class LockStoreLifecycleTests {

	private static final int WEB_SERVER_PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.port=" + redisServer.server().port())
		.withBean(WebServer.class);

	@Test
	void notificationsAndWarmUpStartBeforeTheWebServer() {
		this.runner.run((context) -> {
			assertThat(context.getBean(WebServer.class).locksmithRunning).containsEntry("at start", true);
			assertThat(context.getBean(RedisLockStore.class).isRunning()).isTrue();
		});
	}

	@Test
	void notificationsStopAfterTheWebServer() {
		this.runner.run((context) -> {
			context.stop();
			assertThat(context.getBean(WebServer.class).locksmithRunning).containsEntry("at stop", true);
			assertThat(context.getBean(RedisLockStore.class).isRunning()).isFalse();
		});
	}

	@Test
	void nothingRunsBeforeTheContextStarts() {
		RedisLockStore store = RedisLockStore.builder(new LettuceConnectionFactory()).build();
		store.notifications();
		assertThat(store.isRunning()).isFalse();
		assertThat(store.getPhase()).isLessThan(WEB_SERVER_PHASE);
	}

	@Test
	void theRedlockStoreConnectsOnlyWhenStartedBeforeTheWebServer() {
		List<String> urls = List.of("redis://localhost:1", "redis://localhost:2", "redis://localhost:3");
		try (RedlockLockStore store = RedlockLockStore.builder(urls).timeout(Duration.ofSeconds(1)).build()) {
			store.notifications();
			assertThat(store.isRunning()).as("not connected by the builder").isFalse();
			assertThat(store.getPhase()).isLessThan(WEB_SERVER_PHASE);
		}
	}

	/** Stands for the web server: records whether Locksmith's notifications run when it starts and stops. */
	static class WebServer implements SmartLifecycle {

		final Map<String, Boolean> locksmithRunning = new ConcurrentHashMap<>();

		private final ApplicationContext context;

		private volatile boolean running;

		WebServer(ApplicationContext context) {
			this.context = context;
		}

		@Override
		public void start() {
			this.running = true;
			this.locksmithRunning.put("at start", this.context.getBean(RedisLockStore.class).isRunning());
		}

		@Override
		public void stop() {
			this.locksmithRunning.put("at stop", this.context.getBean(RedisLockStore.class).isRunning());
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return WEB_SERVER_PHASE;
		}

	}

}
