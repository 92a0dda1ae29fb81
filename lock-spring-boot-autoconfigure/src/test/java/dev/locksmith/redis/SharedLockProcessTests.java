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

/**
 * Readers, writers and permit holders in three worker JVMs on one key: no overlap that their modes forbid,
 * and, with one of them killed with {@code kill -9}, its share ends with its own lease while the others go
 * on renewing theirs, and no permit is lost.
 */
@Tag("slow")
class SharedLockProcessTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final Duration LEASE = Duration.ofSeconds(4);

	private static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	@RegisterExtension
	static final RedisServerExtension checkerServer = new RedisServerExtension();

	@RegisterExtension
	final WorkerFleet fleet = new WorkerFleet(redisServer);

	@Test
	void writersExcludeEveryoneAndPermitHoldersNeverExceedTheirCountAcrossThreeProcesses() throws Exception {
		List<ReportingWorker> workers = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			workers.add(this.fleet.start(ModesWorker.class, List.of(Integer.toString(checkerServer.server().port()), "3000")));
		}
		for (ReportingWorker worker : workers) {
			worker.expect("READY");
		}
		for (ReportingWorker worker : workers) {
			worker.send("go");
		}
		for (ReportingWorker worker : workers) {
			worker.expect("DONE");
		}

		ModesLoad.assertModesKept(checkerServer.server());
		assertThat(this.fleet.redis().command("EXISTS", KEYS.lockKey(ModesLoad.READ_KEY), KEYS.lockKey(ModesLoad.PERMITS_KEY)))
			.isEqualTo("0");
	}

	@Test
	void aKilledReaderFreesItsShareAtItsOwnLeaseEndWhileTheOthersRenewTheirs() throws Exception {
		List<ReportingWorker> workers = new ArrayList<>();
		List<String> readers = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			workers.add(start("doc", 0, "read"));
			readers.add(ownerToken(workers.get(i).expect("ACQUIRED")));
		}
		assertThat(liveHolders("doc")).containsExactlyInAnyOrderElementsOf(readers);
		workers.get(0).kill();
		long killedAt = System.nanoTime();
		long killedAtServer = serverMillis();

		await().atMost(LEASE.multipliedBy(3)).until(() -> !liveHolders("doc").contains(readers.get(0)));
		assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).as("freed within its own lease")
			.isLessThan(LEASE.plusSeconds(2));
		assertThat(leaseEnd("doc", readers.get(0))).as("its lease never extended past one lease after the kill")
			.isLessThanOrEqualTo(killedAtServer + LEASE.toMillis());
		await().during(LEASE.multipliedBy(2)).atMost(LEASE.multipliedBy(4))
			.until(() -> liveHolders("doc").containsAll(readers.subList(1, 3)));
		assertThat(this.fleet.locks().tryAcquire("doc", LockOptions.ofTtl(LEASE))).as("the live readers still hold it").isEmpty();
	}

	@Test
	void aKilledPermitHolderFreesItsPermitForTheNextWaiterAndNoPermitIsLost() throws Exception {
		ReportingWorker first = start("pdf", 0, "2");
		String killed = ownerToken(first.expect("ACQUIRED"));
		ReportingWorker second = start("pdf", 0, "2");
		second.expect("ACQUIRED");
		ReportingWorker waiter = start("pdf", 30_000, "2");
		await().atMost(Duration.ofSeconds(30)).until(() -> this.fleet.redis().command("LLEN", KEYS.queueKey("pdf")).equals("1"));

		first.kill();
		long killedAt = System.nanoTime();
		String third = ownerToken(waiter.expect("ACQUIRED"));
		assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).as("granted once the killed lease ended")
			.isLessThan(LEASE.plusSeconds(2));
		assertThat(liveHolders("pdf")).hasSize(2).doesNotContain(killed).contains(third);

		second.send("release");
		second.expect("RELEASED");
		waiter.send("release");
		waiter.expect("RELEASED");
		try (LockHandle one = this.fleet.locks().tryAcquire("pdf", LockOptions.ofTtl(LEASE).withPermits(2)).orElseThrow();
				LockHandle two = this.fleet.locks().tryAcquire("pdf", LockOptions.ofTtl(LEASE).withPermits(2)).orElseThrow()) {
			assertThat(this.fleet.locks().tryAcquire("pdf", LockOptions.ofTtl(LEASE).withPermits(2))).as("two permits, no more")
				.isEmpty();
		}
	}

	/** The holders of {@code key} whose lease has not ended, by the server's clock. */
	private List<String> liveHolders(String key) {
		String members = this.fleet.redis().command("ZRANGEBYSCORE", KEYS.holdersKey(key), "(" + serverMillis(), "+inf");
		return members.isBlank() ? List.of() : List.of(members.split("\n"));
	}

	private long serverMillis() {
		String[] time = this.fleet.redis().command("TIME").split("\n");
		return Long.parseLong(time[0].trim()) * 1000 + Long.parseLong(time[1].trim()) / 1000;
	}

	/** The end of {@code owner}'s lease in the holders of {@code key}, or -1 when it is gone. */
	private double leaseEnd(String key, String owner) {
		String score = this.fleet.redis().command("ZSCORE", KEYS.holdersKey(key), owner);
		return (score == null || score.isBlank()) ? -1.0 : Double.parseDouble(score.trim());
	}

	private static String ownerToken(String acquired) {
		return acquired.substring("ACQUIRED ".length());
	}

	private ReportingWorker start(String key, long waitMillis, String share) throws Exception {
		return this.fleet.start(ShareHolderWorker.class,
				List.of(key, Long.toString(LEASE.toMillis()), Long.toString(waitMillis), share));
	}

}
