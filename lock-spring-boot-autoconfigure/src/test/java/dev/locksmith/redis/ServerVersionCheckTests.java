package dev.locksmith.redis;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis older than 6.2 stops the application's startup with a message that names its version and
 * the one needed: a real Redis 2.8.19 (the binary that {@code it.ozimov:embedded-redis} bundles).
 */
class ServerVersionCheckTests {

	private static final String OLD_REDIS = "redis-server-2.8.19";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class));

	@Test
	void aRedisOlderThan62StopsTheStartupNamingItsVersionAndTheOneNeeded() throws Exception {
		int port = freePort();
		Process redis = new ProcessBuilder(oldRedisBinary().toString(), "--port", Integer.toString(port), "--save", "")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		try {
			await().atMost(Duration.ofSeconds(30)).until(() -> RedisServer.answersOn(port));
			this.runner.withPropertyValues("spring.data.redis.port=" + port).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("version 2.8.19")
					.hasMessageContaining("needs Redis 6.2 or later");
			});
		}
		finally {
			redis.destroyForcibly().waitFor();
		}
	}

	@Test
	void aSupportedRedisStartsAndOneThatIsDownDoesNotHoldUpTheStartup() throws Exception {
		try (RedisServer redis = RedisServer.start()) {
			this.runner.withPropertyValues("spring.data.redis.port=" + redis.port())
				.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(LockService.class));
		}
		this.runner.withPropertyValues("spring.data.redis.port=" + freePort())
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(LockService.class));
	}

	@Test
	void versionsOlderThan62AreRefused() {
		assertThat(ServerVersionCheck.isOlderThanSupported("6.0.16")).isTrue();
		assertThat(ServerVersionCheck.isOlderThanSupported("5.0.14")).isTrue();
		assertThat(ServerVersionCheck.isOlderThanSupported("6.2.0")).isFalse();
		assertThat(ServerVersionCheck.isOlderThanSupported("7.2.4")).isFalse();
		assertThat(ServerVersionCheck.isOlderThanSupported("10.0.0")).isFalse();
	}

	private static Path oldRedisBinary() throws IOException {
		try (InputStream binary = ServerVersionCheckTests.class.getClassLoader().getResourceAsStream(OLD_REDIS)) {
			assertThat(binary).as(OLD_REDIS + " from it.ozimov:embedded-redis").isNotNull();
			Path copy = Files.createTempFile("old-redis-server-", "");
			Files.copy(binary, copy, StandardCopyOption.REPLACE_EXISTING);
			copy.toFile().setExecutable(true);
			copy.toFile().deleteOnExit();
			return copy;
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
