package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Lease renewal and fencing between real processes: one holds the lock in a worker JVM, this one contends. */
@Tag("slow")
class LeaseRenewalProcessTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final Duration LEASE = Duration.ofMillis(1500);

	@RegisterExtension
	final WorkerFleet fleet = new WorkerFleet(redisServer);

	@Test
	void aCallRunningThreeTimesItsTtlKeepsTheLockThroughoutAndReleasesIt() throws Exception {
		ReportingWorker worker = start("report", "work", "9");
		worker.expect("ACQUIRED");
		int attempts = 0;
		while (!worker.hasSaid("WORKED")) {
			assertThat(this.fleet.locks().tryAcquire("report", LockOptions.ofTtl(LEASE))).as("attempt %d", attempts).isEmpty();
			attempts++;
			worker.waitForOutput(Duration.ofMillis(50));
		}
		assertThat(this.fleet.locks().tryAcquire("report", LockOptions.ofTtl(LEASE))).as("still held after the work").isEmpty();
		worker.send("release");
		worker.expect("RELEASED");

		assertThat(attempts).as("contended throughout three leases of work (nine renewals)").isGreaterThan(10);
		assertThat(this.fleet.locks().tryAcquire("report", LockOptions.ofTtl(LEASE))).isPresent();
	}

	@Test
	void aHolderPausedPastItsLeaseIsFencedOffAndEndsWithLockLost() throws Exception {
		ReportingWorker worker = start("account:7", "fenced-write");
		long staleToken = Long.parseLong(worker.expect("ACQUIRED").substring("ACQUIRED ".length()));
		worker.signal("STOP");

		LockHandle newOwner = await().atMost(Duration.ofSeconds(10))
			.until(() -> this.fleet.locks().tryAcquire("account:7", LockOptions.ofTtl(Duration.ofSeconds(30))),
					(handle) -> handle.isPresent())
			.orElseThrow();
		RedisFencedValues resource = new RedisFencedValues(this.fleet.connections());
		assertThat(newOwner.fencingToken()).isGreaterThan(staleToken);
		assertThat(resource.write(LockHolderWorker.FENCED_RESOURCE, "new owner", newOwner.fencingToken())).isTrue();
		worker.signal("CONT");
		worker.send("go");

		assertThat(worker.expect("WRITE")).isEqualTo("WRITE rejected");
		assertThat(worker.expect("HELD")).isEqualTo("HELD false");
		assertThat(worker.expect("LOST")).contains("'account:******'");
		assertThat(resource.read(LockHolderWorker.FENCED_RESOURCE)).isEqualTo("new owner");
		assertThat(newOwner.isHeld()).isTrue();
		assertThat(this.fleet.locks().tryAcquire("account:7", LockOptions.ofTtl(LEASE))).as("new owner's lock intact").isEmpty();
	}

	private ReportingWorker start(String key, String... arguments) throws Exception {
		List<String> command = new ArrayList<>(List.of(key, Long.toString(LEASE.toMillis())));
		command.addAll(List.of(arguments));
		return this.fleet.start(LockHolderWorker.class, command);
	}

}
