package dev.locksmith.leader;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ApplicationEventPublisher;

import dev.locksmith.adapters.RedisLockServices;
import dev.locksmith.testing.FaultyProxy;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Two instances electing a leader on a real Redis never both lead, also when the leader is cut off. */
class LeaderElectionTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final Duration TTL = Duration.ofSeconds(3);

	private final RedisLockServices services = new RedisLockServices(redisServer.server());

	private final Queue<Recorded> events = new ConcurrentLinkedQueue<>();

	private final AtomicInteger bothLed = new AtomicInteger();

	private final AtomicBoolean sampling = new AtomicBoolean(true);

	@AfterEach
	void close() throws Exception {
		this.sampling.set(false);
		this.services.close();
	}

	@Test
	void oneOfTwoInstancesLeadsAndTheOtherTakesOverWithAHigherTokenWhenItStops() {
		LeaderElection first = election(redisServer.server().port());
		LeaderElection second = election(redisServer.server().port());
		sampleBothLeading(first, second);
		first.start();
		await().until(first::isLeader);
		second.start();
		long firstToken = first.fencingToken().getAsLong();
		assertThat(second.isLeader()).isFalse();

		first.stop();

		await().until(second::isLeader);
		long secondToken = second.fencingToken().getAsLong();
		assertThat(secondToken).isGreaterThan(firstToken);
		second.stop();
		assertThat(this.bothLed).hasValue(0);
		assertThat(this.events).extracting(Recorded::event)
			.containsExactly(new LeaderGrantedEvent("cleanup", firstToken), new LeaderRevokedEvent("cleanup", firstToken),
					new LeaderGrantedEvent("cleanup", secondToken), new LeaderRevokedEvent("cleanup", secondToken));
	}

	@Test
	void aLeaderCutOffFromRedisStepsDownBeforeAnotherInstanceIsGranted() throws Exception {
		try (FaultyProxy proxy = FaultyProxy.start(redisServer.server().port())) {
			LeaderElection cutOff = election(proxy.port());
			LeaderElection other = election(redisServer.server().port());
			sampleBothLeading(cutOff, other);
			cutOff.start();
			await().until(cutOff::isLeader);
			other.start();

			proxy.blackhole();
			long cutAt = System.nanoTime();

			await().atMost(Duration.ofSeconds(20)).until(other::isLeader);
			Recorded revoked = recorded(LeaderRevokedEvent.class, 0);
			Recorded granted = recorded(LeaderGrantedEvent.class, 1);
			// the lease ends no sooner than the local expiry; the leader stepped down a quarter of the ttl
			// before that, and published the revocation at its next check, a sixteenth of the ttl later
			assertThat(Duration.ofNanos(granted.nanoTime() - revoked.nanoTime())).isGreaterThan(TTL.dividedBy(8));
			System.out.println("[leader] cut-off leader revoked " + (revoked.nanoTime() - cutAt) / 1_000_000
					+ " ms after the cut, the other granted " + (granted.nanoTime() - cutAt) / 1_000_000 + " ms after it");
			assertThat(Duration.ofNanos(granted.nanoTime() - cutAt)).isLessThan(TTL.multipliedBy(3));
			assertThat(this.bothLed).hasValue(0);
			other.stop();
			cutOff.stop();
		}
	}

	private LeaderElection election(int port) {
		ApplicationEventPublisher publisher = (event) -> this.events.add(new Recorded(event, System.nanoTime()));
		return new LeaderElection("cleanup", this.services.newService(port), TTL, publisher);
	}

	/** Counts the moments, sampled every 100 µs until the test ends, at which both instances lead. */
	private void sampleBothLeading(LeaderElection first, LeaderElection second) {
		Thread sampler = new Thread(() -> {
			while (this.sampling.get()) {
				if (first.isLeader() && second.isLeader()) {
					this.bothLed.incrementAndGet();
				}
				LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
			}
		});
		sampler.setDaemon(true);
		sampler.start();
	}

	private Recorded recorded(Class<?> type, int index) {
		return this.events.stream().filter((recorded) -> type.isInstance(recorded.event())).toList().get(index);
	}

	private record Recorded(Object event, long nanoTime) {
	}

}
