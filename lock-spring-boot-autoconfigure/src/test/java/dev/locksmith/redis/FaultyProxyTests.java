package dev.locksmith.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.locksmith.testing.FaultyProxy;
import dev.locksmith.testing.FaultyProxy.Direction;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The fault proxy of the harness does what it says, against a real Redis, on one raw connection. */
class FaultyProxyTests {

	private RedisServer redis;

	private FaultyProxy proxy;

	@BeforeEach
	void start() {
		this.redis = RedisServer.start();
		this.proxy = FaultyProxy.start(this.redis.port());
	}

	@AfterEach
	void stop() {
		this.proxy.close();
		this.redis.close();
	}

	@Test
	void forwardsAndDelaysEachDirection() throws Exception {
		try (Socket client = connect()) {
			assertThat(ping(client)).isEqualTo("+PONG");
			this.proxy.delay(Direction.UPSTREAM, Duration.ofMillis(60), Duration.ZERO);
			this.proxy.delay(Direction.DOWNSTREAM, Duration.ofMillis(40), Duration.ofMillis(10));
			long start = System.nanoTime();
			assertThat(ping(client)).isEqualTo("+PONG");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(90));
		}
	}

	@Test
	void jitterNeverReordersBytes() throws Exception {
		this.proxy.delay(Duration.ofMillis(5), Duration.ofMillis(5));
		try (Socket client = connect()) {
			StringBuilder pipeline = new StringBuilder();
			for (int i = 0; i < 200; i++) {
				pipeline.append("*2\r\n$4\r\nECHO\r\n$3\r\n").append(String.format("%03d", i)).append("\r\n");
				client.getOutputStream().write(pipeline.toString().getBytes(StandardCharsets.US_ASCII));
				pipeline.setLength(0);
			}
			for (int i = 0; i < 200; i++) {
				assertThat(readLine(client)).isEqualTo("$3");
				assertThat(readLine(client)).isEqualTo(String.format("%03d", i));
			}
		}
	}

	@Test
	void limitsBandwidth() throws Exception {
		this.redis.command("SET", "big", "x".repeat(64 * 1024));
		this.proxy.bandwidth(Direction.DOWNSTREAM, 256 * 1024);
		try (Socket client = connect()) {
			long start = System.nanoTime();
			send(client, "GET", "big");
			assertThat(readLine(client)).isEqualTo("$" + 64 * 1024);
			client.getInputStream().readNBytes(64 * 1024 + 2);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
		}
	}

	@Test
	void blackholeHoldsWithoutClosingAndHealForwardsWhatItHeld() throws Exception {
		try (Socket client = connect()) {
			assertThat(ping(client)).isEqualTo("+PONG");
			this.proxy.connections().forEach(FaultyProxy.Connection::blackhole);
			client.setSoTimeout(300);
			send(client, "PING");
			assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(() -> readLine(client));
			await().until(() -> this.proxy.heldBytes(Direction.UPSTREAM) > 0);
			this.proxy.heal();
			client.setSoTimeout(5000);
			assertThat(readLine(client)).isEqualTo("+PONG");
		}
	}

	@Test
	void tellsSubscribersAndClosesOneSide() throws Exception {
		try (Socket subscriber = connect(); Socket plain = connect()) {
			send(subscriber, "SUBSCRIBE", "subscriber-channel");
			for (String expected : new String[] { "*3", "$9", "subscribe", "$18", "subscriber-channel", ":1" }) {
				assertThat(readLine(subscriber)).isEqualTo(expected);
			}
			send(plain, "GET", "SUBSCRIBE");
			assertThat(readLine(plain)).isEqualTo("$-1");
			await().until(() -> this.proxy.connections().stream().filter(FaultyProxy.Connection::subscriber).count() == 1);
			FaultyProxy.Connection cut = this.proxy.connections()
				.stream()
				.filter(FaultyProxy.Connection::subscriber)
				.findFirst()
				.orElseThrow();
			assertThat(cut.clientPort()).isEqualTo(subscriber.getLocalPort());
			cut.closeClientSide();
			assertThat(subscriber.getInputStream().read()).as("the client's side was closed").isEqualTo(-1);
			assertThat(this.redis.command("CLIENT", "LIST")).as("Redis still has the subscriber").contains("cmd=subscribe");
			assertThat(ping(plain)).isEqualTo("+PONG");
		}
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.proxy.port());
		socket.setSoTimeout(5000);
		return socket;
	}

	private static String ping(Socket client) throws IOException {
		send(client, "PING");
		return readLine(client);
	}

	private static void send(Socket client, String... args) throws IOException {
		StringBuilder command = new StringBuilder("*").append(args.length).append("\r\n");
		for (String arg : args) {
			command.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
		}
		OutputStream out = client.getOutputStream();
		out.write(command.toString().getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	private static String readLine(Socket client) throws IOException {
		InputStream in = client.getInputStream();
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) != '\n') {
			if (c < 0) {
				throw new IOException("end of stream");
			}
			if (c != '\r') {
				line.append((char) c);
			}
		}
		return line.toString();
	}

}
