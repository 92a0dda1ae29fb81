package dev.locksmith.test.testcontainers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine answers here, decided once per test run; tests choose a container or a
 * {@code redis-server} process by it. Testcontainers is asked only where something points to an
 * engine ({@code DOCKER_HOST}, a Testcontainers configuration or a Docker socket), so that a machine
 * without Docker, such as CI, decides at once and without Testcontainers' error report.
 */
final class Docker {

	private static final boolean AVAILABLE = isConfigured() && DockerClientFactory.instance().isDockerAvailable();

	private Docker() {
	}

	static boolean isAvailable() {
		return AVAILABLE;
	}

	static boolean isUnavailable() {
		return !AVAILABLE;
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

}
