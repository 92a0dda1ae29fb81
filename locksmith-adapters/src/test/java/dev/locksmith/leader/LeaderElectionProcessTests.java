package dev.locksmith.leader;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.locksmith.leader.LeadershipChecker.Leadership;
import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three JVMs elect a leader of one role on a real Redis, and the leader acts on a fenced counter on a
 * second Redis. A leader killed with {@code kill -9}, then one frozen with {@code SIGSTOP}, is replaced
 * within its lease plus a bound; the frozen leader's act after it resumes is rejected by the fence, and
 * the checker never sees two processes act with one leadership.
 */
class LeaderElectionProcessTests {

	/**
	 * How much longer than the lease a takeover may take on a loaded machine: the waiter's wake-up, the
	 * grant and the new leader's first act.
	 */
	private static final Duration BOUND = Duration.ofSeconds(10);

	/** How long a step that is not measured may take on a loaded machine. */
	private static final Duration STEP = Duration.ofSeconds(30);

	/** Acts the leader makes between the faults: it acts every 20 ms. */
	private static final int STEADY_ACTS = 10;

	private LeaderFleet fleet;

	private LeadershipChecker checker;

	@BeforeEach
	void start() {
		this.fleet = LeaderFleet.start(3, "election");
		this.checker = this.fleet.checker();
	}

	@AfterEach
	void stop() {
		this.fleet.close();
	}

	@Test
	void anotherInstanceTakesOverFromAKilledAndFromAFrozenLeaderWhoseLaterActIsRejected() {
		this.fleet.await("a first leader acts", LeaderFleet.STARTUP, () -> !this.checker.leaderships().isEmpty());
		Leadership first = this.checker.leaderships().get(0);
		awaitSteadyActs();

		long killedAt = System.currentTimeMillis();
		this.fleet.of(first.pid()).kill();
		Leadership second = awaitNextLeadership(first);
		Duration afterKill = Duration.ofMillis(second.atMillis() - killedAt);

		awaitSteadyActs();
		WorkerJvm frozen = this.fleet.of(second.pid());
		this.checker.holdBeforeNextAct(second.pid());
		this.fleet.await("the leader holds before its next act", STEP, () -> this.checker.holds(second.pid()));
		long frozenAt = System.currentTimeMillis();
		frozen.pause();
		this.checker.letGo(second.pid());
		Leadership third = awaitNextLeadership(second);
		Duration afterFreeze = Duration.ofMillis(third.atMillis() - frozenAt);
		frozen.resume();
		this.fleet.await("the resumed leader's act is rejected", STEP,
				() -> this.checker.count("rejected:" + second.pid()) >= 1);
		awaitSteadyActs();

		System.out.printf("[leader] takeover after kill -9: %d ms, after SIGSTOP: %d ms (lease %d ms); "
				+ "rejected acts of the resumed leader: %d; accepted acts: %d%n", afterKill.toMillis(),
				afterFreeze.toMillis(), LeaderWorker.TTL.toMillis(), this.checker.count("rejected:" + second.pid()),
				this.checker.count("accepted"));
		assertThat(afterKill).isLessThan(LeaderWorker.TTL.plus(BOUND));
		assertThat(afterFreeze).isLessThan(LeaderWorker.TTL.plus(BOUND));
		assertThat(List.of(first.pid(), second.pid(), third.pid())).doesNotHaveDuplicates();
		assertThat(this.checker.count("two-leaders")).as("acts of two processes with one leadership").isZero();
		assertThat(this.checker.count("rejected")).as("rejected acts, all the resumed leader's")
			.isEqualTo(this.checker.count("rejected:" + second.pid()));
		assertThat(this.checker.leaderships()).as("leaderships that acted, in order")
			.extracting(Leadership::token)
			.isSorted()
			.doesNotHaveDuplicates();
	}

	/** Waits for the current leader to act {@value #STEADY_ACTS} more times. */
	private void awaitSteadyActs() {
		long accepted = this.checker.count("accepted");
		this.fleet.await(STEADY_ACTS + " more acts", STEP, () -> this.checker.count("accepted") >= accepted + STEADY_ACTS);
	}

	private Leadership awaitNextLeadership(Leadership previous) {
		this.fleet.await("a leader after " + previous, STEP,
				() -> this.checker.leaderships().stream().anyMatch((leadership) -> leadership.token() > previous.token()));
		return this.checker.leaderships()
			.stream()
			.filter((leadership) -> leadership.token() > previous.token())
			.findFirst()
			.orElseThrow();
	}

}
