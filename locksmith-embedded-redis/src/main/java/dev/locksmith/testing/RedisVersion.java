package dev.locksmith.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;

/**
 * The server builds that the tests run on, for a test class parameterized over them: the one bundled in
 * {@code com.github.codemonstur:embedded-redis} (Redis 6.2), the system's (Redis 7.x: Debian's
 * {@code redis-server} package, which {@code .ci/run} installs) and Valkey 8. Each names the version its
 * binary reports, so a test's name says which one ran.
 */
public enum RedisVersion {

	/** The binary bundled in {@code com.github.codemonstur:embedded-redis}: Redis 6.2. */
	BUNDLED,

	/**
	 * The system's {@code redis-server}, 7.x: the path in {@code LOCKSMITH_REDIS_SYSTEM}, else the one on
	 * {@code PATH}.
	 */
	SYSTEM,

	/**
	 * Valkey 8.0.1, which no package registry here serves: the path in {@code LOCKSMITH_VALKEY_SERVER},
	 * else {@value #VALKEY_BUILD} under the project's parent folder, where the project's machines keep a
	 * build of it. Tests on it are skipped, saying why, where neither exists (a user's fresh clone).
	 */
	VALKEY;

	private static final String VALKEY_BUILD = "shared/servers/valkey-8.0.1/valkey-server";

	private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\d+)\\.(\\d+)");

	private static final int SYSTEM_MAJOR = 7;

	private volatile String reported;

	private volatile boolean announced;

	/**
	 * The executable. The system's, when it is missing or older than 7, fails the test under CI
	 * ({@code CI=true}), where {@code .ci/run} installs it, and aborts it elsewhere, saying why.
	 */
	public Path binary() {
		Optional<Path> binary = find();
		if (this == VALKEY && binary.isEmpty()) {
			String message = "The tests on Valkey cannot run: no valkey-server in LOCKSMITH_VALKEY_SERVER, nor at "
					+ VALKEY_BUILD + " in a parent folder of " + Path.of("").toAbsolutePath();
			announce("SKIPPED: " + message);
			Assumptions.abort(message);
		}
		String problem = binary.isEmpty() ? "no redis-server 7.x on PATH (nor in LOCKSMITH_REDIS_SYSTEM)"
				: (this == SYSTEM && major() < SYSTEM_MAJOR) ? binary.get() + " is Redis " + version() + ", not 7.x"
						: null;
		if (problem == null) {
			announce("RUN on " + binary.get());
			return binary.get();
		}
		String message = "The tests on the system's Redis cannot run: " + problem
				+ ". Install it (apt-get install redis-server; .ci/run does) or set LOCKSMITH_REDIS_SYSTEM.";
		if ("true".equals(System.getenv("CI"))) {
			throw new IllegalStateException(message);
		}
		announce("SKIPPED: " + message);
		Assumptions.abort(message);
		throw new AssertionError(message);
	}

	/** Says once in the build's output which binary the tests of this version run on, or why they do not. */
	private void announce(String outcome) {
		if (!this.announced) {
			this.announced = true;
			System.err.println("[redis-versions] " + this + " tests " + outcome);
		}
	}

	/** The version the binary reports, such as {@code 7.0.15}; {@code unknown} when it is missing. */
	public String version() {
		if (this.reported == null) {
			this.reported = find().map(RedisVersion::reportedBy).orElse("unknown");
		}
		return this.reported;
	}

	/** For a test's name: {@code Redis 7.0.15 (system)}, {@code Valkey 8.0.1}. */
	@Override
	public String toString() {
		return (this == VALKEY) ? "Valkey " + version()
				: "Redis " + version() + " (" + name().toLowerCase(java.util.Locale.ROOT) + ")";
	}

	private Optional<Path> find() {
		return switch (this) {
			case BUNDLED -> Optional.of(RedisBinary.bundled());
			case SYSTEM -> RedisBinary.system();
			case VALKEY -> valkey();
		};
	}

	/** {@code LOCKSMITH_VALKEY_SERVER}, else {@value #VALKEY_BUILD} under the nearest folder that has it. */
	private static Optional<Path> valkey() {
		String chosen = System.getenv("LOCKSMITH_VALKEY_SERVER");
		if (chosen != null && !chosen.isBlank()) {
			return Optional.of(Path.of(chosen)).filter(Files::isExecutable);
		}
		for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
			Path build = folder.resolve(VALKEY_BUILD);
			if (Files.isExecutable(build)) {
				return Optional.of(build);
			}
		}
		return Optional.empty();
	}

	private int major() {
		Matcher matcher = VERSION.matcher("v=" + version());
		return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
	}

	private static String reportedBy(Path binary) {
		try {
			Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			process.waitFor(10, TimeUnit.SECONDS);
			Matcher matcher = VERSION.matcher(output);
			return matcher.find() ? matcher.group(1) + "." + matcher.group(2) + "." + matcher.group(3) : "unknown";
		}
		catch (IOException ex) {
			return "unknown";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "unknown";
		}
	}

}
