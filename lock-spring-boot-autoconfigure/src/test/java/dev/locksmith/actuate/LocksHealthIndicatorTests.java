package dev.locksmith.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.locksmith.actuate.LocksEndpoint.InstanceLocks;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServer;

import static dev.locksmith.actuate.ActuatorContexts.HOLD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The health indicator and its lost-lease tracker: details, readable reasons, and lost leases, on a real Redis. */
class LocksHealthIndicatorTests {

	@RegisterExtension
	static final ActuatorContexts contexts = new ActuatorContexts();

	@Test
	void healthIsUpWithDetailsWhileRedisAnswersAndDownWhenItDoesNot() {
		try (RedisServer own = RedisServer.start()) {
			contexts.runner().withPropertyValues("spring.data.redis.port=" + own.port(), "locksmith.redis-timeout=500ms")
				.run((context) -> {
					LocksHealthIndicator health = context.getBean(LocksHealthIndicator.class);
					context.getBean(LockService.class).acquire("job", HOLD);

					Health up = health.health();
					assertThat(up.getStatus()).isEqualTo(Status.UP);
					assertThat(up.getDetails()).containsEntry("store", "redis-standalone")
						.containsEntry("held", 1)
						.containsEntry("lostLeases", 0L);
					own.stop();
					assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
					// Until Lettuce has seen the connection close, a check times out; on a loaded machine that takes a while.
					await().atMost(Duration.ofSeconds(10))
						.untilAsserted(() -> assertThat(health.health().getDetails())
							.containsEntry("store", "redis-standalone")
							.containsEntry("error", "connection lost, Lettuce is reconnecting"));
				});
		}
	}

	@Test
	void healthSaysConnectionRefusedWhenRedisWasNeverThere() {
		contexts.runner().withPropertyValues("spring.data.redis.port=" + RedisServer.freePort()).run((context) -> {
			Health down = context.getBean(LocksHealthIndicator.class).health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(down.getDetails()).containsEntry("store", "redis-standalone")
				.containsEntry("error", "connection refused");
		});
	}

	@Test
	void healthSaysHowLongItWaitedForASilentRedis() {
		try (RedisServer own = RedisServer.start()) {
			contexts.runner().withPropertyValues("spring.data.redis.port=" + own.port(), "locksmith.redis-timeout=300ms")
				.run((context) -> {
					LocksHealthIndicator health = context.getBean(LocksHealthIndicator.class);
					// the first check connects, which on a loaded machine may take longer than 300ms
					await().atMost(Duration.ofSeconds(10)).until(() -> health.health().getStatus().equals(Status.UP));
					own.pause();
					Health down = health.health();
					own.resume();
					assertThat(down.getStatus()).isEqualTo(Status.DOWN);
					assertThat(down.getDetails()).containsEntry("error", "timed out after 300ms");
				});
		}
	}

	@Test
	void healthChecksPilingUpOnASilentRedisSayTheyAreBusyOrTimedOutInWords() {
		// 4 administration calls wait for the store at once: 8 checks leave at least 4 without a thread
		int checks = 8;
		try (RedisServer own = RedisServer.start()) {
			contexts.runner().withPropertyValues("spring.data.redis.port=" + own.port(), "locksmith.redis-timeout=300ms")
				.run((context) -> {
					LocksHealthIndicator health = context.getBean(LocksHealthIndicator.class);
					// the first check connects, which on a loaded machine may take longer than 300ms
					await().atMost(Duration.ofSeconds(10)).until(() -> health.health().getStatus().equals(Status.UP));
					own.pause();
					List<Health> answers;
					try {
						answers = atOnce(checks, health::health);
					}
					finally {
						own.resume();
					}
					assertThat(answers).extracting(Health::getStatus).containsOnly(Status.DOWN);
					assertThat(answers).extracting((answer) -> answer.getDetails().get("error"))
						.containsOnly("timed out after 300ms", "busy: 4 earlier calls still wait for the store")
						.filteredOn("busy: 4 earlier calls still wait for the store"::equals)
						.hasSizeGreaterThanOrEqualTo(checks - 4);
					assertThat(answers).extracting((answer) -> answer.getDetails().toString())
						.noneMatch((details) -> details.contains("Exception"));
				});
		}
	}

	@Test
	void anUnrenewedLeaseThatEndedLeavesTheHealthCountAndTheEndpoint() {
		contexts.runner().run((context) -> {
			LocksHealthIndicator health = context.getBean(LocksHealthIndicator.class);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockHandle handle = context.getBean(LockService.class)
				.acquire("job", LockOptions.ofTtl(Duration.ofSeconds(5)).withRenew(false));
			assertThat(health.health().getDetails()).containsEntry("held", 1);

			await().atMost(Duration.ofSeconds(20)).until(() -> !handle.isHeld());
			assertThat(health.health().getDetails()).containsEntry("held", 0);
			assertThat(((InstanceLocks) endpoint.locks(null, null, SecurityContext.NONE)).locks()).isEmpty();
		});
	}

	@Test
	void aLostLeaseShowsInTheHealthAndTurnsItDownOnlyWhenConfigured() {
		contexts.runner().run((context) -> {
			LocksHealthIndicator indicator = context.getBean(LocksHealthIndicator.class);
			loseALease(context.getBean(LockService.class));
			// Listeners hear of the loss on the event thread, just after the handle turned not-held.
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(indicator.health().getDetails()).containsEntry("lostLeases", 1L));
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("lostLeases", 1L).containsKey("lastLostLeaseAt");
		});
		contexts.runner().withPropertyValues("locksmith.health.down-on-lost-lease=true").run((context) -> {
			LocksHealthIndicator indicator = context.getBean(LocksHealthIndicator.class);
			loseALease(context.getBean(LockService.class));
			await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getStatus().equals(Status.DOWN));
		});
	}

	/** Runs {@code count} calls of {@code call} at the same moment, each on its own thread, and their answers. */
	private static <T> List<T> atOnce(int count, Callable<T> call) throws Exception {
		CyclicBarrier start = new CyclicBarrier(count);
		ExecutorService threads = Executors.newFixedThreadPool(count);
		try {
			List<Future<T>> answers = threads.invokeAll(IntStream.range(0, count).<Callable<T>>mapToObj((i) -> () -> {
				start.await();
				return call.call();
			}).toList());
			List<T> values = new ArrayList<>();
			for (Future<T> answer : answers) {
				values.add(answer.get());
			}
			return values;
		}
		finally {
			threads.shutdownNow();
		}
	}

	/** Holds a lock named "report" with a short renewed lease until renewal ran, then deletes it behind its back. */
	private void loseALease(LockService locks) throws InterruptedException {
		LockHandle handle = locks.acquire("report-2026", LockOptions.ofTtl(Duration.ofMillis(600)).withName("report"));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> locks.heldLocks().stream().anyMatch((lock) -> lock.renewals() > 0));
		contexts.redis().command("DEL", "lock:{report-2026}");
		await().atMost(Duration.ofSeconds(10)).until(() -> !handle.isHeld());
	}

}
