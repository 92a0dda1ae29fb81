package dev.locksmith.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.ResponseEntity;

import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The sample starts with one command: no Redis configured, it runs its own and stops it on shutdown. */
@ExtendWith(OutputCaptureExtension.class)
class SampleApplicationTests {

	@Test
	void startsAnEmbeddedRedisWhenNoneIsConfiguredAndStopsItOnShutdown() {
		int port = RedisServer.freePort();
		try (SampleInstance sample = SampleInstance.start("sample.embedded-redis.port=" + port,
				"spring.datasource.url=jdbc:h2:mem:embedded-redis-test")) {
			assertThat(RedisServer.answersOn(port)).isTrue();

			Map<?, ?> account = sample.http().post().uri("/accounts/alice/deposit?cents=5").retrieve().body(Map.class);
			assertThat(account.get("balance")).isEqualTo(10005);
			assertThat(((Number) account.get("fence")).longValue()).isPositive();
		}
		assertThat(RedisServer.answersOn(port)).as("the embedded Redis stops with the app").isFalse();
	}

	@Test
	void theEmbeddedRedisStopsOnlyAfterTheWebServerDrainedItsRequests(CapturedOutput output) {
		int port = RedisServer.freePort();
		SampleInstance sample = SampleInstance.start("sample.embedded-redis.port=" + port,
				"spring.datasource.url=jdbc:h2:mem:shutdown-order-test");
		CompletableFuture<ResponseEntity<Map>> slowDeposit = CompletableFuture.supplyAsync(() -> sample.http()
			.post()
			.uri("/accounts/alice/deposit?cents=5&thinkTime=2s")
			.retrieve()
			.toEntity(Map.class));
		await().until(() -> sample.http().get().uri("/actuator/locks").retrieve().body(String.class),
				(locks) -> locks.contains("account:alice"));
		sample.close();

		assertThat(slowDeposit.join().getStatusCode().value()).isEqualTo(200);
		String log = output.getOut();
		assertThat(log.indexOf("Graceful shutdown complete")).as("the web server drained").isNotNegative()
			.isLessThan(log.indexOf("Stopped the embedded redis-server"));
		assertThat(log).doesNotContain("Could not release lock").doesNotContain("RejectedExecutionException");
		assertThat(RedisServer.answersOn(port)).isFalse();
	}

	@Test
	void usesTheRedisAlreadyRunningOnTheEmbeddedPort() {
		try (RedisServer shared = RedisServer.start();
				SampleInstance sample = SampleInstance.start("sample.embedded-redis.port=" + shared.port(),
						"spring.datasource.url=jdbc:h2:mem:shared-redis-test")) {
			sample.http().post().uri("/accounts/bob/deposit?cents=1").retrieve().toBodilessEntity();

			assertThat(shared.command("EXISTS", "lock:fence:{account:bob}")).isEqualTo("1");
		}
	}

	@Test
	@EnabledOnOs(OS.LINUX)
	void theEmbeddedRedisRunsInASessionOfItsOwnSoThatCtrlCInTheTerminalReachesOnlyTheApp() throws IOException {
		int port = RedisServer.freePort();
		try (SampleInstance sample = SampleInstance.start("sample.embedded-redis.port=" + port,
				"spring.datasource.url=jdbc:h2:mem:own-session-test")) {
			String serverOnPort = ".*redis.*(:| --port )" + port + "\\b.*";
			ProcessHandle redis = ProcessHandle.current()
				.descendants()
				.filter((process) -> commandLine(process).matches(serverOnPort))
				.findFirst()
				.orElseThrow();

			assertThat(session(redis)).as("the session of the embedded redis-server, which a Ctrl+C must not reach")
				.isNotEqualTo(session(ProcessHandle.current()));
		}
	}

	/** The command line in /proc/<pid>/cmdline, as redis-server rewrites it ("redis-server 127.0.0.1:6379"). */
	private static String commandLine(ProcessHandle process) {
		try {
			return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline")).replace('\0', ' ');
		}
		catch (IOException ex) {
			return "";   // the process ended meanwhile
		}
	}

	/** The session id in /proc/<pid>/stat: after the command in parentheses come state, ppid, pgrp, session. */
	private static String session(ProcessHandle process) throws IOException {
		String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
		return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3];
	}

}
