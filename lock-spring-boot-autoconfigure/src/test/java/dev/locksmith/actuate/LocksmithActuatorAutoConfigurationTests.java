package dev.locksmith.actuate;

import java.security.Principal;
import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.actuate.LocksEndpoint.ClusterLocks;
import dev.locksmith.actuate.LocksEndpoint.InstanceLocks;
import dev.locksmith.autoconfigure.LocksmithActuatorAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The endpoint, health contributor and metrics: their conditions, masking and values, on a real Redis. */
class LocksmithActuatorAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final LockOptions HOLD = LockOptions.ofTtl(Duration.ofSeconds(30));

	private RedisServer redis;

	private ApplicationContextRunner runner;

	@BeforeEach
	void configure() {
		this.redis = redisServer.server();
		this.runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class,
					LocksmithActuatorAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + this.redis.port(), "locksmith.instance-id=node-1",
					"management.endpoints.web.exposure.include=locks");
	}

	@Test
	void withoutActuatorOrMicrometerLockingStillWorks() {
		this.runner.withClassLoader(new FilteredClassLoader(Endpoint.class, HealthIndicator.class, MeterRegistry.class))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(LocksEndpoint.class)
					.doesNotHaveBean(LocksHealthIndicator.class)
					.getBean(LockService.class)
					.isInstanceOf(DefaultLockService.class);
				assertThat(context.getBean(LockService.class).tryAcquire("job", HOLD)).isPresent();
			});
	}

	@Test
	void theEndpointIsAbsentUntilExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void theEndpointIsAbsentWhenItsAccessIsNone() {
		this.runner.withPropertyValues("management.endpoint.locks.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void forcedReleaseIsOffByDefault() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(LocksEndpoint.class)
			.doesNotHaveBean(ReleasingLocksEndpoint.class));
		this.runner.withPropertyValues("locksmith.actuator.release-enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(ReleasingLocksEndpoint.class));
	}

	@Test
	void keysAreMaskedByDefaultInBothViews() {
		this.runner.run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			try (LockHandle handle = context.getBean(LockService.class).acquire("Wallets.withdraw:alice", HOLD)) {
				InstanceLocks local = (InstanceLocks) endpoint.locks(null, SecurityContext.NONE);
				assertThat(local.locks()).singleElement().satisfies((lock) -> {
					assertThat(lock.name()).isEqualTo("Wallets.withdraw");
					assertThat(lock.key()).isEqualTo("Wallets.withdraw:******");
					assertThat(lock.fencingToken()).isEqualTo(handle.fencingToken());
				});
				ClusterLocks cluster = (ClusterLocks) endpoint.locks("cluster", SecurityContext.NONE);
				assertThat(cluster.locks()).singleElement().satisfies((lock) -> {
					assertThat(lock.key()).isEqualTo("Wallets.withdraw:******");
					assertThat(lock.holderInstance()).isEqualTo("node-1");
					assertThat(lock.remainingTtlMillis()).isBetween(1L, 30_000L);
				});
			}
		});
	}

	@Test
	void keysAreShownWhenAlwaysAllowedOrToAuthorizedUsers() {
		this.runner.withPropertyValues("locksmith.actuator.show-keys=always").run((context) -> {
			context.getBean(LockService.class).acquire("Wallets.withdraw:alice", HOLD);
			assertThat(((InstanceLocks) context.getBean(LocksEndpoint.class).locks(null, SecurityContext.NONE)).locks())
				.singleElement()
				.satisfies((lock) -> assertThat(lock.key()).isEqualTo("Wallets.withdraw:alice"));
		});
		this.runner.withPropertyValues("locksmith.actuator.show-keys=when-authorized").run((context) -> {
			context.getBean(LockService.class).acquire("Wallets.withdraw:bob", HOLD);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			assertThat(((ClusterLocks) endpoint.locks("cluster", SecurityContext.NONE)).locks())
				.extracting(LocksEndpoint.ClusterLock::key)
				.contains("Wallets.withdraw:******");
			assertThat(((ClusterLocks) endpoint.locks("cluster", authenticated("operator"))).locks())
				.extracting(LocksEndpoint.ClusterLock::key)
				.contains("Wallets.withdraw:bob");
		});
	}

	@Test
	void forcedReleaseDeletesOnlyTheLockAndKeepsTheFencingCounter() {
		this.runner.withPropertyValues("locksmith.actuator.release-enabled=true").run((context) -> {
			LockService locks = context.getBean(LockService.class);
			LockHandle evicted = locks.acquire("job:1", HOLD);
			ReleasingLocksEndpoint endpoint = context.getBean(ReleasingLocksEndpoint.class);

			assertThat(endpoint.release("job:1", authenticated("operator"))).isEqualTo(Map.of("key", "job:1", "released", true));
			assertThat(endpoint.release("job:1", SecurityContext.NONE)).isEqualTo(Map.of("key", "job:1", "released", false));
			LockHandle next = locks.acquire("job:1", HOLD);
			assertThat(next.fencingToken()).isGreaterThan(evicted.fencingToken());
		});
	}

	@Test
	void healthIsUpWithDetailsWhileRedisAnswersAndDownWhenItDoesNot() {
		try (RedisServer own = RedisServer.start()) {
			this.runner.withPropertyValues("spring.data.redis.port=" + own.port(), "locksmith.redis-timeout=500ms")
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
				});
		}
	}

	@Test
	void anUnrenewedLeaseThatEndedLeavesTheHealthCountAndTheEndpoint() {
		this.runner.run((context) -> {
			LocksHealthIndicator health = context.getBean(LocksHealthIndicator.class);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockHandle handle = context.getBean(LockService.class)
				.acquire("job", LockOptions.ofTtl(Duration.ofSeconds(5)).withRenew(false));
			assertThat(health.health().getDetails()).containsEntry("held", 1);

			await().atMost(Duration.ofSeconds(20)).until(() -> !handle.isHeld());
			assertThat(health.health().getDetails()).containsEntry("held", 0);
			assertThat(((InstanceLocks) endpoint.locks(null, SecurityContext.NONE)).locks()).isEmpty();
		});
	}

	@Test
	void aLostLeaseShowsInTheHealthAndTurnsItDownOnlyWhenConfigured() {
		this.runner.run((context) -> {
			LocksHealthIndicator indicator = context.getBean(LocksHealthIndicator.class);
			loseALease(context.getBean(LockService.class));
			// Listeners hear of the loss on the event thread, just after the handle turned not-held.
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(indicator.health().getDetails()).containsEntry("lostLeases", 1L));
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("lostLeases", 1L).containsKey("lastLostLeaseAt");
		});
		this.runner.withPropertyValues("locksmith.health.down-on-lost-lease=true").run((context) -> {
			LocksHealthIndicator indicator = context.getBean(LocksHealthIndicator.class);
			loseALease(context.getBean(LockService.class));
			await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getStatus().equals(Status.DOWN));
		});
	}

	@Test
	void metricsCountAcquisitionsByNameAndOutcomeNeverByKey() {
		this.runner.withBean(SimpleMeterRegistry.class).run((context) -> {
			LockService locks = context.getBean(LockService.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(locks).isInstanceOf(MeteredLockService.class);

			LockHandle held = locks.acquire("Wallets.withdraw:alice", HOLD);
			locks.tryAcquire("Wallets.withdraw:alice", HOLD);
			locks.tryAcquire("Wallets.withdraw:bob", HOLD).orElseThrow().close();

			assertThat(meters.get("locksmith.acquire").tags("name", "Wallets.withdraw", "outcome", "acquired").timer().count())
				.isEqualTo(2);
			assertThat(meters.get("locksmith.acquire").tags("name", "Wallets.withdraw", "outcome", "busy").timer().count())
				.isEqualTo(1);
			assertThat(meters.get("locksmith.held").tags("name", "Wallets.withdraw").longTaskTimer().activeTasks())
				.isEqualTo(1);
			assertThat(meters.getMeters()).allSatisfy((meter) -> assertThat(meter.getId().getTags())
				.noneMatch((tag) -> tag.getValue().contains("alice") || tag.getValue().contains("bob")));
			held.close();
			assertThat(meters.get("locksmith.held").tags("name", "Wallets.withdraw").longTaskTimer().activeTasks())
				.isZero();
		});
	}

	@Test
	void metricsCountRenewalsAndLostLeases() {
		this.runner.withBean(SimpleMeterRegistry.class).run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			loseALease(context.getBean(LockService.class));

			// The metrics listener hears of renewals and losses on the event thread, a moment after the engine.
			Search lost = meters.find("locksmith.lost").tags("name", "report");
			await().atMost(Duration.ofSeconds(10)).until(() -> counted(lost) >= 1);
			assertThat(counted(lost)).isEqualTo(1);
			await().atMost(Duration.ofSeconds(10)).until(() -> counted(meters.find("locksmith.renewals")) > 0);
		});
	}

	/** Holds "report" with a short renewed lease until renewal ran, then deletes it behind its back. */
	private static double counted(Search search) {
		Counter counter = search.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private void loseALease(LockService locks) throws InterruptedException {
		LockHandle handle = locks.acquire("report", LockOptions.ofTtl(Duration.ofMillis(600)));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> locks.heldLocks().stream().anyMatch((lock) -> lock.renewals() > 0));
		this.redis.command("DEL", "lock:{report}");
		await().atMost(Duration.ofSeconds(10)).until(() -> !handle.isHeld());
	}

	private static SecurityContext authenticated(String name) {
		Principal principal = () -> name;
		return new SecurityContext() {

			@Override
			public Principal getPrincipal() {
				return principal;
			}

			@Override
			public boolean isUserInRole(String role) {
				return true;
			}

		};
	}

}
