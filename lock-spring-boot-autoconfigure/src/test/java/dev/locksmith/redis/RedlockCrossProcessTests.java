package dev.locksmith.redis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three JVMs contend for one Redlock lock over three servers around a non-atomic read-modify-write on
 * a fourth Redis, while one lock server is killed and restarted empty after more than a lease.
 */
@Tag("slow")
class RedlockCrossProcessTests extends RedlockTestSupport {

	private static final int PROCESSES = 3;

	private static final int INCREMENTS_EACH = 150;

	private static final Duration TTL = Duration.ofSeconds(2);

	@Test
	void processesLoseNoUpdateAndSeeIncreasingTokensWhileAServerRestartsEmpty() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		RedisServer resource = servers.first(5).get(4);
		String ports = nodes.stream().map((node) -> Integer.toString(node.port())).collect(Collectors.joining(","));
		List<Process> workers = new ArrayList<>();
		List<Path> logs = new ArrayList<>();
		for (int i = 0; i < PROCESSES; i++) {
			Path log = Files.createTempFile("redlock-worker-", ".log");
			logs.add(log);
			workers.add(new ProcessBuilder(WorkerJvm.command(RedlockCounterWorker.class, ports, Integer.toString(resource.port()),
					Long.toString(TTL.toMillis()), Integer.toString(INCREMENTS_EACH)))
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start());
		}
		await().atMost(Duration.ofMinutes(2)).until(() -> count(resource) >= 50);
		Map<String, String> leasesAtTheCrash = leases(nodes.subList(1, nodes.size()));
		nodes.get(0).kill();
		// The server restarts empty only once every lease it may have granted has ended: any lease held at the
		// crash was also granted by a majority, so by one of the other servers, and is gone from them.
		await().atMost(Duration.ofMinutes(1))
			.until(() -> leases(nodes.subList(1, nodes.size())).entrySet()
				.stream()
				.noneMatch((lease) -> lease.getValue().equals(leasesAtTheCrash.get(lease.getKey()))));
		nodes.get(0).restart();
		for (int i = 0; i < PROCESSES; i++) {
			Process worker = workers.get(i);
			assertThat(worker.waitFor(5, TimeUnit.MINUTES)).as("worker %d finished", i).isTrue();
			assertThat(worker.exitValue()).as("worker %d exit code; its output:%n%s", i, Files.readString(logs.get(i)))
				.isZero();
		}

		assertThat(count(resource)).isEqualTo(PROCESSES * INCREMENTS_EACH);
		long[] tokens = Arrays.stream(resource.command("LRANGE", RedlockCounterWorker.FENCING_LOG, "0", "-1").split("\n"))
			.mapToLong(Long::parseLong)
			.toArray();
		assertThat(tokens).hasSize(PROCESSES * INCREMENTS_EACH).isSorted().doesNotHaveDuplicates();
	}

	/** The lock keys of {@code servers} and the owner token in each, by server port and key. */
	private static Map<String, String> leases(List<RedisServer> servers) {
		Map<String, String> leases = new HashMap<>();
		for (RedisServer server : servers) {
			for (String key : server.command("KEYS", RedlockFixture.KEYS.lockKeyPattern()).split("\n")) {
				if (!key.isEmpty()) {
					leases.put(server.port() + " " + key, server.command("GET", key));
				}
			}
		}
		return leases;
	}

	private static long count(RedisServer resource) {
		String counter = resource.command("GET", RedlockCounterWorker.COUNTER);
		return (counter == null || counter.isEmpty()) ? 0 : Long.parseLong(counter.trim());
	}

}
