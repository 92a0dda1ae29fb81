package dev.locksmith.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real {@code redis-server} process on a free loopback port, for tests: start, stop, kill -9,
 * pause ({@code SIGSTOP}), resume ({@code SIGCONT}) and restart it empty on the same port.
 */
public final class RedisServer implements AutoCloseable {

	private static final Pattern COMMAND_STAT = Pattern.compile("cmdstat_([^:]+):calls=(\\d+)");

	private static final int ADMIN_TIMEOUT_MILLIS = 5000;

	private final int port;

	private final List<String> extraArguments;

	private final @Nullable String configFile;

	private final Map<String, String> environment;

	private @Nullable Path binary;

	private boolean ownSession;

	private Process process;

	private Path log;

	private RedisServer(int port, List<String> extraArguments, @Nullable String configFile) {
		this(port, extraArguments, configFile, Map.of());
	}

	private RedisServer(int port, List<String> extraArguments, @Nullable String configFile,
			Map<String, String> environment) {
		this.port = port;
		this.extraArguments = extraArguments;
		this.configFile = configFile;
		this.environment = environment;
	}

	/** Starts a server on a free port. */
	public static RedisServer start() {
		return onFreePort((port) -> new RedisServer(port, List.of(), null));
	}

	/** A server on {@code port}, not started yet. */
	static RedisServer unstartedOn(int port) {
		return new RedisServer(port, List.of(), null);
	}

	/** Starts a server on {@code port}, with extra {@code redis-server} arguments such as {@code --cluster-enabled yes}. */
	public static RedisServer startOn(int port, String... extraArguments) {
		RedisServer server = new RedisServer(port, List.of(extraArguments), null);
		server.launch();
		return server;
	}

	/** Starts a server of {@code version} on a free port, with extra {@code redis-server} arguments such as {@code --tls-port}. */
	public static RedisServer start(RedisVersion version, String... extraArguments) {
		return onFreePort((port) -> {
			RedisServer server = new RedisServer(port, List.of(extraArguments), null);
			server.binary = version.binary();
			return server;
		});
	}

	/** Starts a server of {@code version} on {@code port}, with extra {@code redis-server} arguments. */
	public static RedisServer startOn(RedisVersion version, int port, String... extraArguments) {
		RedisServer server = new RedisServer(port, List.of(extraArguments), null);
		server.binary = version.binary();
		server.launch();
		return server;
	}

	/**
	 * Starts a server on {@code port} in a session of its own (through {@code setsid}, where there is
	 * one), for an application that stops it on shutdown: a Ctrl+C in the terminal signals the whole
	 * foreground process group, and would otherwise stop the server before the application is done
	 * with it.
	 */
	public static RedisServer startInOwnSessionOn(int port) {
		RedisServer server = new RedisServer(port, List.of(), null);
		server.ownSession = true;
		server.launch();
		return server;
	}

	/**
	 * Starts a server on a free port whose wall clock is {@code clock}: stepping or drifting the clock
	 * moves the server's {@code TIME} and key expiry; a restart keeps the clock. It is always the bundled
	 * binary ({@link RedisVersion#BUNDLED}): Debian's {@code redis-server} 7.0 links the shared
	 * {@code libjemalloc.so.2}, whose {@code malloc} replaces glibc's in the whole process, and
	 * libfaketime 0.9.10 then recurses into its own {@code clock_gettime} while it initialises ("Cannot
	 * recover from unexpected recursive calls to clock_gettime()") and the server never starts; the bundled
	 * binary builds jemalloc in under the {@code je_} prefix and leaves {@code malloc} to glibc.
	 */
	public static RedisServer start(FakeClock clock) {
		return onFreePort((port) -> {
			RedisServer server = new RedisServer(port, List.of(), null, clock.environment());
			server.binary = RedisVersion.BUNDLED.binary();
			return server;
		});
	}

	/**
	 * Launches the server that {@code server} makes for a free port, on another free port when another
	 * process took that one first: test JVMs that run side by side pick their ports independently.
	 */
	private static RedisServer onFreePort(IntFunction<RedisServer> server) {
		return onFreePort(RedisServer::freePort, server);
	}

	/** {@link #onFreePort(IntFunction)} on the ports that {@code ports} proposes. */
	static RedisServer onFreePort(IntSupplier ports, IntFunction<RedisServer> server) {
		for (int attempt = 1;; attempt++) {
			RedisServer made = server.apply(ports.getAsInt());
			try {
				made.launch();
				return made;
			}
			catch (PortTakenException ex) {
				if (attempt == 5) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Starts a Sentinel on {@code port} from {@code configFile}, which it rewrites as it learns the
	 * topology; restarting it keeps what it learnt.
	 */
	public static RedisServer startSentinel(int port, Path configFile) {
		RedisServer sentinel = new RedisServer(port, List.of("--sentinel"), configFile.toString());
		sentinel.launch();
		return sentinel;
	}

	/** Whether a Redis server answers {@code PING} on the loopback {@code port}. */
	public static boolean answersOn(int port) {
		try {
			return "PONG".equals(RespClient.call(port, 500, "PING"));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/** Whether nothing listens on the loopback {@code port} right now. */
	static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port)) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** A loopback port that nothing listens on right now. */
	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public int port() {
		return this.port;
	}

	/** A started Lettuce connection factory for this server; the caller destroys it. */
	public LettuceConnectionFactory connectionFactory() {
		return connectionFactory(this.port);
	}

	/** A started Lettuce connection factory for the Redis on loopback {@code port}; the caller destroys it. */
	public static LettuceConnectionFactory connectionFactory(int port) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/** Sends one command and returns the reply as text. */
	public String command(String... args) {
		return RespClient.call(this.port, ADMIN_TIMEOUT_MILLIS, args);
	}

	/** Calls per command since start or the last {@link #resetStats()}, without this helper's own. */
	public Map<String, Long> commandCalls() {
		Map<String, Long> calls = new LinkedHashMap<>();
		Matcher matcher = COMMAND_STAT.matcher(command("INFO", "commandstats"));
		while (matcher.find()) {
			calls.put(matcher.group(1), Long.parseLong(matcher.group(2)));
		}
		calls.keySet().removeIf((name) -> name.equals("info") || name.startsWith("config"));
		return calls;
	}

	/** Total calls of the given commands since the last reset. */
	public long callsOf(String... commands) {
		Map<String, Long> calls = commandCalls();
		long total = 0;
		for (String name : commands) {
			total += calls.getOrDefault(name, 0L);
		}
		return total;
	}

	/** How many clients are subscribed to {@code channel}. */
	public int subscribers(String channel) {
		return Integer.parseInt(command("PUBSUB", "NUMSUB", channel).split("\n")[1]);
	}

	/** Starts recording the commands that clients send; close it when done. */
	public CommandMonitor monitor() {
		return new CommandMonitor(this);
	}

	public void resetStats() {
		command("CONFIG", "RESETSTAT");
	}

	/** Stops the server cleanly; its data is lost. */
	public void stop() {
		if (this.process != null && this.process.isAlive()) {
			this.process.destroy();
			awaitExit();
		}
	}

	/** Kills the server with SIGKILL. */
	public void kill() {
		if (this.process != null) {
			this.process.destroyForcibly();
			awaitExit();
		}
	}

	/** Freezes the server with SIGSTOP: connections stay open, nothing is answered. */
	public void pause() {
		signal("STOP");
	}

	/** Resumes a paused server with SIGCONT. */
	public void resume() {
		signal("CONT");
	}

	/** Starts the server again, empty, on the same port. */
	public void restart() {
		stop();
		launch();
	}

	@Override
	public void close() {
		resume();
		kill();
	}

	private void launch() {
		try {
			Path dir = Files.createTempDirectory("locksmith-redis-");
			List<String> command = new ArrayList<>(
					List.of(((this.binary != null) ? this.binary : RedisBinary.get()).toString()));
			Path setsid = this.ownSession ? onPath("setsid") : null;
			if (setsid != null) {
				command.add(0, setsid.toString());   // execs redis-server in place: the pid stays the server's
			}
			if (this.configFile != null) {
				command.add(this.configFile);
			}
			command.addAll(this.extraArguments);
			command.addAll(List.of("--port", Integer.toString(this.port), "--bind", "127.0.0.1", "--dir",
					dir.toString()));
			if (this.configFile == null) {
				command.addAll(List.of("--save", "", "--appendonly", "no"));
			}
			this.log = dir.resolve("redis.log");
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(this.log.toFile());
			builder.environment().putAll(this.environment);
			this.process = builder.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start redis-server", ex);
		}
		awaitReady();
	}

	private static @Nullable Path onPath(String program) {
		for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(directory, program);
			if (!directory.isEmpty() && Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		return null;
	}

	/**
	 * Waits until this server answers on its port; a server of another process that answers there (the
	 * port was taken between choosing and binding it) does not count.
	 */
	private void awaitReady() {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		String ownProcess = "process_id:" + this.process.pid();
		while (true) {
			RuntimeException failure = null;
			try {
				if (RespClient.call(this.port, 500, "INFO", "server").contains(ownProcess)) {
					return;
				}
			}
			catch (RuntimeException ex) {
				failure = ex;
			}
			if (!this.process.isAlive() && logTail().contains("Address already in use")) {
				throw new PortTakenException("port " + this.port + " was taken by another process" + logTail());
			}
			if (!this.process.isAlive() || System.nanoTime() > deadline || libfaketimeGaveUp()) {
				throw new IllegalStateException("redis-server did not start on port " + this.port + logTail(), failure);
			}
			sleepBriefly();
		}
	}

	/** The server could not bind its port, which another process took. */
	private static final class PortTakenException extends IllegalStateException {

		PortTakenException(String message) {
			super(message);
		}

	}

	/** Whether libfaketime wrote that it cannot run this binary: the server then hangs at start. */
	private boolean libfaketimeGaveUp() {
		try {
			return !this.environment.isEmpty() && Files.readString(this.log).contains("libfaketime: Cannot recover");
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	/** The end of the server's log, for an error message. */
	private String logTail() {
		try {
			List<String> lines = Files.readAllLines(this.log);
			return ", its log ends:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
		}
		catch (IOException | RuntimeException ex) {
			return "";
		}
	}

	private void awaitExit() {
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("redis-server on port " + this.port + " did not exit");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private void signal(String signal) {
		if (this.process != null) {
			Signals.send(this.process, signal);
		}
	}

	static void sleepBriefly() {
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
