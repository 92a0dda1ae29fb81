package dev.locksmith.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.locksmith.leader.LeadershipChecker.Leadership;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three JVMs elect a leader of one role on a real Redis, and the leader acts on a fenced counter on a
 * second Redis. A leader killed with {@code kill -9}, then one frozen with {@code SIGSTOP}, is replaced
 * once its lease ends, within a bound for the waiter's re-check and a loaded machine; the frozen leader's
 * act after it resumes is rejected by the fence, and the checker never sees two processes act with one
 * leadership. The run prints its takeover times and act counts.
 */
@Tag("slow")
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
		awaitSteadyActs();

		Leadership killed = current();
		long killedAt = System.currentTimeMillis();
		this.fleet.of(killed.pid()).kill();
		Leadership afterKill = awaitNextLeadership(killed);

		awaitSteadyActs();
		Leadership frozen = holdTheLeader();
		long frozenAt = System.currentTimeMillis();
		this.fleet.of(frozen.pid()).pause();
		this.checker.letGo(frozen.pid());
		Leadership afterFreeze = awaitNextLeadership(frozen);
		this.fleet.of(frozen.pid()).resume();
		this.fleet.await("the resumed leader's act is rejected", STEP,
				() -> this.checker.count("rejected:" + frozen.pid()) >= 1);
		awaitSteadyActs();

		Duration killTakeover = Duration.ofMillis(afterKill.atMillis() - killedAt);
		Duration freezeTakeover = Duration.ofMillis(afterFreeze.atMillis() - frozenAt);
		System.out.printf("[leader] takeover after kill -9: %d ms, after SIGSTOP: %d ms (lease %d ms); rejected acts: "
				+ "%d of the resumed leader, %d in all; accepted acts: %d; leaderships: %d%n", killTakeover.toMillis(),
				freezeTakeover.toMillis(), LeaderWorker.TTL.toMillis(), this.checker.count("rejected:" + frozen.pid()),
				this.checker.count("rejected"), this.checker.count("accepted"), this.checker.leaderships().size());
		assertThat(killTakeover).isLessThan(LeaderWorker.TTL.plus(BOUND));
		assertThat(freezeTakeover).isLessThan(LeaderWorker.TTL.plus(BOUND));
		assertThat(afterKill.pid()).isNotEqualTo(killed.pid());
		assertThat(afterFreeze.pid()).isNotIn(killed.pid(), frozen.pid());
		assertThat(this.checker.count("two-leaders")).as("acts of two processes with one leadership").isZero();
		assertThat(this.checker.leaderships()).as("leaderships that acted, in order")
			.extracting(Leadership::token)
			.isSorted()
			.doesNotHaveDuplicates();
	}

	/** The leadership that acted last. */
	private Leadership current() {
		List<Leadership> leaderships = this.checker.leaderships();
		return leaderships.get(leaderships.size() - 1);
	}

	/**
	 * Asks the current leader to hold before its next act, and waits until it does; asks the next one
	 * should the leadership change meanwhile, as a leader starved of CPU on a busy machine steps down.
	 */
	private Leadership holdTheLeader() {
		AtomicReference<Leadership> asked = new AtomicReference<>();
		this.fleet.await("the leader holds before its next act", STEP, () -> {
			Leadership leader = current();
			if (leader.equals(asked.get())) {
				return this.checker.holds(leader.pid());
			}
			if (asked.get() != null) {
				this.checker.letGo(asked.get().pid());
			}
			this.checker.holdBeforeNextAct(leader.pid());
			asked.set(leader);
			return false;
		});
		return asked.get();
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
