package dev.locksmith.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Watches a server with {@code MONITOR} and records the commands that clients sent, one per round
 * trip; commands that scripts run inside the server are left out.
 */
public final class CommandMonitor implements AutoCloseable {

	private static final Pattern CLIENT_COMMAND = Pattern.compile("^\\+?[\\d.]+ \\[\\d+ (?!lua\\])[^\\]]+\\] \"([^\"]+)\"");

	private final RedisServer server;

	private final Socket socket = new Socket();

	private final List<String> commands = new CopyOnWriteArrayList<>();

	CommandMonitor(RedisServer server) {
		this.server = server;
		try {
			this.socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
			this.socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
			BufferedReader lines = new BufferedReader(
					new InputStreamReader(this.socket.getInputStream(), StandardCharsets.UTF_8));
			if (!"+OK".equals(lines.readLine())) {
				throw new IllegalStateException("MONITOR was refused");
			}
			Thread reader = new Thread(() -> record(lines), "redis-monitor-" + server.port());
			reader.setDaemon(true);
			reader.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The client commands seen so far, upper case, once every command sent before this call has
	 * been seen (a marker command is sent and waited for).
	 */
	public List<String> clientCommands() {
		String marker = "monitor-marker-" + UUID.randomUUID();
		this.server.command("ECHO", marker);
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!this.commands.contains("ECHO " + marker)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("MONITOR did not report the marker command within 10s");
			}
			RedisServer.sleepBriefly();
		}
		return this.commands.stream()
			.filter((command) -> !command.startsWith("ECHO monitor-marker-"))
			.map((command) -> command.split(" ")[0])
			.toList();
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void record(BufferedReader lines) {
		try {
			String line;
			while ((line = lines.readLine()) != null) {
				Matcher matcher = CLIENT_COMMAND.matcher(line);
				if (matcher.find()) {
					String command = matcher.group(1).toUpperCase();
					this.commands.add(command.equals("ECHO") ? "ECHO " + argumentOf(line) : command);
				}
			}
		}
		catch (IOException ex) {
			// the monitor was closed
		}
	}

	private static String argumentOf(String line) {
		String[] quoted = line.split("\"");
		return (quoted.length > 3) ? quoted[3] : "";
	}

}
