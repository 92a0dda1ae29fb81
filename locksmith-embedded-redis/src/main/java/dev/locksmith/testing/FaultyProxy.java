package dev.locksmith.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on a loopback port in front of a server on another loopback port, which injects network
 * faults: a fixed or jittered delay per direction, a bandwidth limit per direction, a blackhole (bytes
 * are held, not forwarded, and no side is closed, as in a partition that TCP outlives), and closing one
 * side of a connection. Faults set on the proxy apply to every connection, including later ones; a
 * blackhole can also hit single connections, such as {@linkplain Connection#subscriber() the pub/sub
 * subscriber}. Bytes are never reordered or dropped: a jittered delay keeps their order, and a healed
 * blackhole forwards what it held.
 */
public final class FaultyProxy implements AutoCloseable {

	/** A direction of traffic. */
	public enum Direction {

		/** From the client to the server. */
		UPSTREAM,

		/** From the server to the client. */
		DOWNSTREAM

	}

	/** The commands that turn a connection into a subscriber, as RESP bulk strings (a key may say "subscribe"). */
	private static final List<byte[]> SUBSCRIBE = List.of("$9\r\nSUBSCRIBE\r\n", "$10\r\nPSUBSCRIBE\r\n", "$10\r\nSSUBSCRIBE\r\n")
		.stream()
		.map((command) -> command.getBytes(StandardCharsets.US_ASCII))
		.toList();

	private static final AtomicInteger IDS = new AtomicInteger();

	private final int targetPort;

	private final ServerSocket listener;

	private final List<Connection> connections = new CopyOnWriteArrayList<>();

	private final Faults[] faults = { new Faults(), new Faults() };

	private volatile boolean blackholed;

	private volatile boolean closed;

	private FaultyProxy(int targetPort, ServerSocket listener) {
		this.targetPort = targetPort;
		this.listener = listener;
	}

	/** Starts a proxy to the server on loopback {@code targetPort}. */
	public static FaultyProxy start(int targetPort) {
		try {
			ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			FaultyProxy proxy = new FaultyProxy(targetPort, listener);
			daemon("faulty-proxy-accept-" + listener.getLocalPort(), proxy::accept).start();
			return proxy;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The loopback port that clients connect to. */
	public int port() {
		return this.listener.getLocalPort();
	}

	/** Delays every chunk of bytes in {@code direction} by {@code fixed} ± a uniform {@code jitter}. */
	public void delay(Direction direction, Duration fixed, Duration jitter) {
		Faults faults = this.faults[direction.ordinal()];
		faults.delayNanos = fixed.toNanos();
		faults.jitterNanos = jitter.toNanos();
	}

	/** Delays both directions by {@code fixed} ± {@code jitter}. */
	public void delay(Duration fixed, Duration jitter) {
		delay(Direction.UPSTREAM, fixed, jitter);
		delay(Direction.DOWNSTREAM, fixed, jitter);
	}

	/** Forwards at most {@code bytesPerSecond} in {@code direction}; 0 for no limit. */
	public void bandwidth(Direction direction, long bytesPerSecond) {
		this.faults[direction.ordinal()].bytesPerSecond = bytesPerSecond;
	}

	/** Stops forwarding on every connection, and on new ones, without closing any. */
	public void blackhole() {
		this.blackholed = true;
	}

	/** Takes every fault away, on the proxy and on each connection: held bytes go on. */
	public void heal() {
		this.blackholed = false;
		for (Faults faults : this.faults) {
			faults.delayNanos = 0;
			faults.jitterNanos = 0;
			faults.bytesPerSecond = 0;
		}
		this.connections.forEach(Connection::heal);
	}

	/** The connections open now. */
	public List<Connection> connections() {
		return List.copyOf(this.connections);
	}

	/** Bytes that arrived in {@code direction} and were not forwarded yet, over all connections. */
	public long heldBytes(Direction direction) {
		return this.connections.stream().mapToLong((connection) -> connection.pumps[direction.ordinal()].held()).sum();
	}

	@Override
	public void close() {
		this.closed = true;
		try {
			this.listener.close();
		}
		catch (IOException ex) {
			// closing
		}
		this.connections.forEach(Connection::close);
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.listener.accept();
				Socket server = new Socket();
				try {
					server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.targetPort), 5000);
				}
				catch (IOException ex) {
					client.close();
					continue;
				}
				client.setTcpNoDelay(true);
				server.setTcpNoDelay(true);
				Connection connection = new Connection(client, server);
				this.connections.add(connection);
				connection.start();
			}
			catch (IOException ex) {
				if (!this.closed) {
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
				}
			}
		}
	}

	private static Thread daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		return thread;
	}

	/** The faults of one direction, set on the proxy. */
	private static final class Faults {

		volatile long delayNanos;

		volatile long jitterNanos;

		volatile long bytesPerSecond;

	}

	/** One client connection and its connection to the server. */
	public final class Connection {

		private final int id = IDS.incrementAndGet();

		private final Socket client;

		private final Socket server;

		private final Pump[] pumps;

		private volatile boolean subscriber;

		private volatile boolean blackholed;

		private volatile boolean halfClosedOnPurpose;

		private Connection(Socket client, Socket server) {
			this.client = client;
			this.server = server;
			this.pumps = new Pump[] { new Pump(Direction.UPSTREAM, client, server),
					new Pump(Direction.DOWNSTREAM, server, client) };
		}

		private void start() {
			for (Pump pump : this.pumps) {
				pump.start();
			}
		}

		/** Whether the client sent a {@code SUBSCRIBE}, {@code PSUBSCRIBE} or {@code SSUBSCRIBE} on it. */
		public boolean subscriber() {
			return this.subscriber;
		}

		/** The client's port: which client this is. */
		public int clientPort() {
			return this.client.getPort();
		}

		/** Stops forwarding on this connection, both ways, without closing it. */
		public void blackhole() {
			this.blackholed = true;
		}

		/** Forwards again on this connection, and what it held. */
		public void heal() {
			this.blackholed = false;
		}

		/** Closes the client's side only: the server keeps its connection open and hears nothing. */
		public void closeClientSide() {
			this.halfClosedOnPurpose = true;
			closeQuietly(this.client);
		}

		/** Closes the server's side only: the client keeps its connection open and hears nothing. */
		public void closeServerSide() {
			this.halfClosedOnPurpose = true;
			closeQuietly(this.server);
		}

		/** Closes both sides. */
		public void close() {
			closeQuietly(this.client);
			closeQuietly(this.server);
			FaultyProxy.this.connections.remove(this);
		}

		private boolean blackholed() {
			return this.blackholed || FaultyProxy.this.blackholed;
		}

		/** The end of one side: the whole connection closes, unless a side was closed on purpose. */
		private void ended() {
			if (!this.halfClosedOnPurpose) {
				close();
			}
		}

		@Override
		public String toString() {
			return "connection " + this.id + " from port " + clientPort() + (this.subscriber ? " (subscriber)" : "");
		}

		/** Forwards one direction: a reader that stamps each chunk with when it may go on, and a writer. */
		private final class Pump {

			private final Direction direction;

			private final Socket from;

			private final Socket to;

			private final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();

			private final AtomicInteger held = new AtomicInteger();

			private long lastDue;

			Pump(Direction direction, Socket from, Socket to) {
				this.direction = direction;
				this.from = from;
				this.to = to;
			}

			void start() {
				String name = "faulty-proxy-" + Connection.this.id + "-" + this.direction.name().toLowerCase(Locale.ROOT);
				daemon(name + "-read", this::read).start();
				daemon(name + "-write", this::write).start();
			}

			long held() {
				return this.held.get();
			}

			/** Reads until the side closes; the sockets are closed by {@link Connection}, never here. */
			private void read() {
				byte[] buffer = new byte[16 * 1024];
				try {
					InputStream in = this.from.getInputStream();
					int read;
					while ((read = in.read(buffer)) >= 0) {
						byte[] bytes = Arrays.copyOf(buffer, read);
						if (this.direction == Direction.UPSTREAM
								&& SUBSCRIBE.stream().anyMatch((command) -> contains(bytes, command))) {
							Connection.this.subscriber = true;
						}
						this.held.addAndGet(read);
						this.queue.add(new Chunk(bytes, due()));
					}
				}
				catch (IOException ex) {
					// the side closed
				}
				this.queue.add(Chunk.END);
			}

			/** When a chunk read now may go on: after its delay, and never before the chunk ahead of it. */
			private long due() {
				Faults faults = FaultyProxy.this.faults[this.direction.ordinal()];
				long jitter = faults.jitterNanos;
				long delay = faults.delayNanos
						+ (jitter > 0 ? ThreadLocalRandom.current().nextLong(-jitter, jitter + 1) : 0);
				this.lastDue = Math.max(this.lastDue, System.nanoTime() + Math.max(0, delay));
				return this.lastDue;
			}

			private void write() {
				long nextSlot = System.nanoTime();
				try {
					OutputStream out = this.to.getOutputStream();
					while (true) {
						Chunk chunk = this.queue.take();
						if (chunk == Chunk.END) {
							break;
						}
						sleepUntil(chunk.due());
						while (blackholed() && !this.to.isClosed()) {
							LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
						}
						int offset = 0;
						while (offset < chunk.bytes().length) {
							long perSecond = FaultyProxy.this.faults[this.direction.ordinal()].bytesPerSecond;
							int length = chunk.bytes().length - offset;
							if (perSecond > 0) {
								length = (int) Math.min(length, Math.max(1, perSecond / 100));
								nextSlot = Math.max(nextSlot, System.nanoTime());
								sleepUntil(nextSlot);
								nextSlot += length * 1_000_000_000L / perSecond;
							}
							out.write(chunk.bytes(), offset, length);
							out.flush();
							offset += length;
							this.held.addAndGet(-length);
						}
					}
				}
				catch (IOException ex) {
					// the side closed
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				ended();
			}

		}

	}

	private record Chunk(byte[] bytes, long due) {

		static final Chunk END = new Chunk(new byte[0], 0);

	}

	private static void sleepUntil(long nanoTime) throws InterruptedException {
		long remaining = nanoTime - System.nanoTime();
		if (remaining > 0) {
			TimeUnit.NANOSECONDS.sleep(remaining);
		}
	}

	/**
	 * Whether {@code bytes} hold {@code upperCase} as a command name: right after an array header
	 * ({@code *<count>\r\n}), so a key or value that reads "SUBSCRIBE" does not count.
	 */
	private static boolean contains(byte[] bytes, byte[] upperCase) {
		outer: for (int i = 0; i + upperCase.length <= bytes.length; i++) {
			for (int j = 0; j < upperCase.length; j++) {
				if (Character.toUpperCase(bytes[i + j]) != upperCase[j]) {
					continue outer;
				}
			}
			if (afterArrayHeader(bytes, i)) {
				return true;
			}
		}
		return false;
	}

	private static boolean afterArrayHeader(byte[] bytes, int at) {
		int i = at - 1;
		if (i < 1 || bytes[i] != '\n' || bytes[i - 1] != '\r') {
			return false;
		}
		i -= 2;
		int digits = 0;
		while (i >= 0 && bytes[i] >= '0' && bytes[i] <= '9') {
			i--;
			digits++;
		}
		return digits > 0 && i >= 0 && bytes[i] == '*' && (i == 0 || bytes[i - 1] == '\n');
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closing
		}
	}

}
