package dev.locksmith.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Lease renewal and fencing between real processes: one holds the lock in a worker JVM, this one contends. */
class LeaseRenewalProcessTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final Duration LEASE = Duration.ofMillis(1500);

	private RedisServer redis;

	private LettuceConnectionFactory connections;

	private DefaultLockService locks;

	private final List<Process> workers = new ArrayList<>();

	@BeforeEach
	void connect() {
		this.redis = redisServer.server();
		this.connections = this.redis.connectionFactory();
		this.locks = DefaultLockService
			.builder(new RedisLockBackend(this.connections, new RedisLockKeys("lock:")))
			.storeTimeout(Duration.ofSeconds(2))
			.build();
	}

	@AfterEach
	void cleanUp() {
		this.workers.forEach(Process::destroyForcibly);
		this.locks.close();
		this.connections.destroy();
	}

	@Test
	void aCallRunningThreeTimesItsTtlKeepsTheLockThroughoutAndReleasesIt() throws Exception {
		Worker worker = start("report", "work", "9");
		worker.expect("ACQUIRED");
		int attempts = 0;
		while (!worker.hasSaid("WORKED")) {
			assertThat(this.locks.tryAcquire("report", LockOptions.ofTtl(LEASE))).as("attempt %d", attempts).isEmpty();
			attempts++;
			worker.waitForOutput(Duration.ofMillis(50));
		}
		assertThat(this.locks.tryAcquire("report", LockOptions.ofTtl(LEASE))).as("still held after the work").isEmpty();
		worker.send("release");
		worker.expect("RELEASED");

		assertThat(attempts).as("contended throughout three leases of work (nine renewals)").isGreaterThan(10);
		assertThat(this.locks.tryAcquire("report", LockOptions.ofTtl(LEASE))).isPresent();
	}

	@Test
	void aHolderPausedPastItsLeaseIsFencedOffAndEndsWithLockLost() throws Exception {
		Worker worker = start("account:7", "fenced-write");
		long staleToken = Long.parseLong(worker.expect("ACQUIRED").substring("ACQUIRED ".length()));
		worker.signal("STOP");

		LockHandle newOwner = await().atMost(Duration.ofSeconds(10))
			.until(() -> this.locks.tryAcquire("account:7", LockOptions.ofTtl(Duration.ofSeconds(30))),
					(handle) -> handle.isPresent())
			.orElseThrow();
		RedisFencedValues resource = new RedisFencedValues(this.connections);
		assertThat(newOwner.fencingToken()).isGreaterThan(staleToken);
		assertThat(resource.write(LockHolderWorker.FENCED_RESOURCE, "new owner", newOwner.fencingToken())).isTrue();
		worker.signal("CONT");
		worker.send("go");

		assertThat(worker.expect("WRITE")).isEqualTo("WRITE rejected");
		assertThat(worker.expect("HELD")).isEqualTo("HELD false");
		assertThat(worker.expect("LOST")).contains("'account:******'");
		assertThat(resource.read(LockHolderWorker.FENCED_RESOURCE)).isEqualTo("new owner");
		assertThat(newOwner.isHeld()).isTrue();
		assertThat(this.locks.tryAcquire("account:7", LockOptions.ofTtl(LEASE))).as("new owner's lock intact").isEmpty();
	}

	private Worker start(String... arguments) throws Exception {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), LockHolderWorker.class.getName(),
				Integer.toString(this.redis.port()), arguments[0], Long.toString(LEASE.toMillis())));
		command.addAll(List.of(arguments).subList(1, arguments.length));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
		this.workers.add(process);
		return new Worker(process);
	}

	/** A worker JVM and the report lines it printed. */
	private static final class Worker {

		private final Process process;

		private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

		private final List<String> seen = new ArrayList<>();

		Worker(Process process) {
			this.process = process;
			Thread reader = new Thread(() -> {
				try (BufferedReader output = new BufferedReader(
						new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
					output.lines().filter((line) -> line.startsWith("WORKER ")).map((line) -> line.substring(7))
						.forEach(this.lines::add);
				}
				catch (java.io.IOException ex) {
					// the worker ended
				}
			});
			reader.setDaemon(true);
			reader.start();
		}

		/** Waits for the next report line, which must start with {@code prefix}. */
		String expect(String prefix) throws InterruptedException {
			String line = this.lines.poll(60, TimeUnit.SECONDS);
			assertThat(line).as("worker report starting with %s (seen before: %s)", prefix, this.seen).startsWith(prefix);
			this.seen.add(line);
			return line;
		}

		void waitForOutput(Duration atMost) throws InterruptedException {
			String line = this.lines.poll(atMost.toMillis(), TimeUnit.MILLISECONDS);
			if (line != null) {
				this.seen.add(line);
			}
		}

		boolean hasSaid(String prefix) {
			return this.seen.stream().anyMatch((line) -> line.startsWith(prefix));
		}

		void send(String line) throws java.io.IOException {
			OutputStream input = this.process.getOutputStream();
			input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
			input.flush();
		}

		void signal(String signal) throws Exception {
			assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).start().waitFor())
				.isZero();
		}

	}

}
