package dev.locksmith.test.testcontainers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine answers here, decided once per test run and printed with the reason, so that
 * a build's output says whether the Docker tests ran: tests choose a container or a
 * {@code redis-server} process by it. Testcontainers is asked only where something points to an
 * engine ({@code DOCKER_HOST}, a Testcontainers configuration or a Docker socket), so that a machine
 * without Docker decides at once and without Testcontainers' error report.
 */
final class Docker {

	private static final Verdict VERDICT = decide();

	private Docker() {
	}

	static boolean isAvailable() {
		return VERDICT.available();
	}

	private static Verdict decide() {
		Verdict verdict = ask();
		System.out.println("[locksmith-test] Docker tests " + (verdict.available() ? "RUN: " : "SKIPPED: ")
				+ verdict.reason());
		return verdict;
	}

	private static Verdict ask() {
		if (!isConfigured()) {
			return new Verdict(false, "no Docker engine is configured (no DOCKER_HOST, no "
					+ "~/.testcontainers.properties, no docker.sock); a redis-server process stands in");
		}
		try {
			DockerClientFactory docker = DockerClientFactory.instance();
			if (docker.isDockerAvailable()) {
				return new Verdict(true, "a Docker engine answers at " + docker.getTransportConfig().getDockerHost()
						+ " (API " + docker.getActiveApiVersion() + ")");
			}
			return new Verdict(false, "a Docker engine is configured but does not answer (Testcontainers' "
					+ "log above says why); a redis-server process stands in");
		}
		catch (RuntimeException ex) {
			return new Verdict(false, "asking Docker failed (" + ex + "); a redis-server process stands in");
		}
	}

	private static boolean isConfigured() {
		Path home = Path.of(System.getProperty("user.home"));
		String runtimeDir = System.getenv("XDG_RUNTIME_DIR");
		return System.getenv("DOCKER_HOST") != null || Files.exists(home.resolve(".testcontainers.properties"))
				|| Stream.of(Path.of("/var/run/docker.sock"), home.resolve(".docker/run/docker.sock"),
						home.resolve(".docker/desktop/docker.sock"),
						Path.of((runtimeDir != null) ? runtimeDir : "/nonexistent", "docker.sock"))
					.anyMatch(Files::exists);
	}

	private record Verdict(boolean available, String reason) {
	}

	/** Runs a test class only where a Docker engine answers, and says why it does or does not. */
	static final class Required implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			return VERDICT.available() ? ConditionEvaluationResult.enabled("Docker tests run: " + VERDICT.reason())
					: ConditionEvaluationResult.disabled("Docker tests skipped: " + VERDICT.reason());
		}

	}

	/** Runs a test class only where no Docker engine answers: its stand-in for the Docker tests. */
	static final class Absent implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			return VERDICT.available()
					? ConditionEvaluationResult.disabled("a Docker engine answers: RedisContainerConfigurationTests run instead")
					: ConditionEvaluationResult.enabled("no Docker engine: " + VERDICT.reason());
		}

	}

}
