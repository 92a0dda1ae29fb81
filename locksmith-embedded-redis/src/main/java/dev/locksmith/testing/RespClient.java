package dev.locksmith.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal Redis protocol client for test assertions and server administration, independent of the
 * client library under test. Replies are returned as text; arrays are joined by newlines.
 */
final class RespClient {

	private RespClient() {
	}

	static String call(int port, int timeoutMillis, String... args) {
		try (Connection connection = new Connection(port, timeoutMillis)) {
			return connection.call(args);
		}
	}

	/** One connection kept open for many commands, for administration that sends thousands of them. */
	static final class Connection implements AutoCloseable {

		private final int port;

		private final Socket socket = new Socket();

		private final OutputStream out;

		private final InputStream in;

		Connection(int port, int timeoutMillis) {
			this.port = port;
			try {
				this.socket.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
				this.socket.setSoTimeout(timeoutMillis);
				this.out = this.socket.getOutputStream();
				this.in = new BufferedInputStream(this.socket.getInputStream());
			}
			catch (IOException ex) {
				close();
				throw new UncheckedIOException("Could not connect to Redis on port " + port, ex);
			}
		}

		/** Sends one command and returns the reply as text. */
		String call(String... args) {
			try {
				this.out.write(encode(args));
				this.out.flush();
				return read(this.in);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(
						"Redis on port " + this.port + " did not answer " + String.join(" ", args), ex);
			}
		}

		@Override
		public void close() {
			try {
				this.socket.close();
			}
			catch (IOException ex) {
				// Nothing left to release.
			}
		}

	}

	private static byte[] encode(String... args) {
		StringBuilder command = new StringBuilder("*").append(args.length).append("\r\n");
		for (String arg : args) {
			byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
			command.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
		}
		return command.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String read(InputStream in) throws IOException {
		String line = readLine(in);
		char type = line.charAt(0);
		String rest = line.substring(1);
		return switch (type) {
			case '+', ':' -> rest;
			case '-' -> throw new IllegalStateException("Redis error: " + rest);
			case '$' -> readBulk(in, Integer.parseInt(rest));
			case '*' -> readArray(in, Integer.parseInt(rest));
			default -> throw new IllegalStateException("Unexpected reply: " + line);
		};
	}

	private static String readBulk(InputStream in, int length) throws IOException {
		if (length < 0) {
			return "";
		}
		String value = new String(in.readNBytes(length), StandardCharsets.UTF_8);
		readLine(in);
		return value;
	}

	private static String readArray(InputStream in, int size) throws IOException {
		StringBuilder items = new StringBuilder();
		for (int i = 0; i < size; i++) {
			items.append(i == 0 ? "" : "\n").append(read(in));
		}
		return items.toString();
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		int current;
		while ((current = in.read()) != -1) {
			if (previous == '\r' && current == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(current);
			previous = current;
		}
		throw new IOException("Connection closed by Redis");
	}

}
