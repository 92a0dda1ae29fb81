package dev.locksmith.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds a {@code redis-server} executable: the path in the environment variable
 * {@code LOCKSMITH_REDIS_SERVER} ({@code bundled} forces the bundled one), else the one on
 * {@code PATH}, else the Linux binary bundled in {@code com.github.codemonstur:embedded-redis},
 * copied once to a temporary file. {@link RedisVersion} picks one of two builds explicitly.
 */
public final class RedisBinary {

	private static final String BUNDLED = "redis-server-6.2.6-v5-linux-amd64";

	private static volatile Path resolved;

	private static volatile Path bundled;

	private RedisBinary() {
	}

	/** The executable to start. */
	public static Path get() {
		if (resolved == null) {
			synchronized (RedisBinary.class) {
				if (resolved == null) {
					resolved = chosen().or(RedisBinary::onPath).orElseGet(RedisBinary::bundled);
				}
			}
		}
		return resolved;
	}

	/** The bundled binary (6.2.6), whichever {@link #get()} chose. */
	static Path bundled() {
		if (bundled == null) {
			synchronized (RedisBinary.class) {
				if (bundled == null) {
					bundled = extractBundled();
				}
			}
		}
		return bundled;
	}

	private static Optional<Path> chosen() {
		String chosen = System.getenv("LOCKSMITH_REDIS_SERVER");
		if (chosen == null || chosen.isBlank()) {
			return Optional.empty();
		}
		return Optional.of(chosen.equals("bundled") ? bundled() : Path.of(chosen));
	}

	/** The system's executable: the path in {@code LOCKSMITH_REDIS_SYSTEM}, else the one on {@code PATH}. */
	static Optional<Path> system() {
		String chosen = System.getenv("LOCKSMITH_REDIS_SYSTEM");
		if (chosen != null && !chosen.isBlank()) {
			return Optional.of(Path.of(chosen)).filter(Files::isExecutable);
		}
		return onPath();
	}

	private static Optional<Path> onPath() {
		String path = System.getenv().getOrDefault("PATH", "");
		return Stream.of(path.split(java.io.File.pathSeparator))
			.filter((dir) -> !dir.isBlank())
			.map((dir) -> Path.of(dir, "redis-server"))
			.filter(Files::isExecutable)
			.findFirst();
	}

	private static Path extractBundled() {
		try (InputStream binary = RedisBinary.class.getClassLoader().getResourceAsStream(BUNDLED)) {
			if (binary == null) {
				throw new IllegalStateException("No redis-server on PATH and no " + BUNDLED
						+ " on the classpath (add com.github.codemonstur:embedded-redis)");
			}
			Path target = Files.createTempFile("locksmith-redis-server-", "");
			Files.copy(binary, target, StandardCopyOption.REPLACE_EXISTING);
			target.toFile().setExecutable(true);
			target.toFile().deleteOnExit();
			return target;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not extract " + BUNDLED, ex);
		}
	}

}
