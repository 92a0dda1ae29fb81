package dev.locksmith.actuate;

import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import org.assertj.core.groups.Tuple;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jmx.JmxEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.jmx.ExposableJmxEndpoint;
import org.springframework.boot.actuate.endpoint.jmx.JmxEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.jmx.JmxOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jmx.JmxAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;

import dev.locksmith.actuate.LocksEndpoint.ClusterLock;
import dev.locksmith.actuate.LocksEndpoint.ClusterLocks;
import dev.locksmith.actuate.LocksEndpoint.ForcedRelease;
import dev.locksmith.actuate.LocksEndpoint.HeldLock;
import dev.locksmith.actuate.LocksEndpoint.InstanceLocks;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.autoconfigure.endpoint.LocksEndpointAutoConfiguration;
import dev.locksmith.autoconfigure.health.LocksHealthContributorAutoConfiguration;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The endpoint, health contributor and metrics: their conditions, masking and values, on a real Redis. */
@ExtendWith(OutputCaptureExtension.class)
class LocksmithActuatorAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final LockOptions HOLD = LockOptions.ofTtl(Duration.ofSeconds(30));

	private static final AutoConfigurations LOCKSMITH = AutoConfigurations.of(DataRedisAutoConfiguration.class,
			LocksmithAutoConfiguration.class, LocksEndpointAutoConfiguration.class,
			LocksHealthContributorAutoConfiguration.class);

	private RedisServer redis;

	private ApplicationContextRunner runner;

	@BeforeEach
	void configure() {
		this.redis = redisServer.server();
		this.runner = new ApplicationContextRunner().withConfiguration(LOCKSMITH)
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
	void forcedReleaseIsServedOnlyWithUnrestrictedAccess() {
		ApplicationContextRunner discovered = withEndpointDiscovery();
		discovered.run((context) -> assertThat(locksOperations(context)).containsExactly(OperationType.READ));
		discovered.withPropertyValues("management.endpoint.locks.access=UNRESTRICTED")
			.run((context) -> assertThat(locksOperations(context)).containsExactlyInAnyOrder(OperationType.READ,
					OperationType.DELETE));
	}

	@Test
	void theRetiredReleaseFlagDoesNotOpenTheDeleteOperation() {
		withEndpointDiscovery().withPropertyValues("locksmith.actuator.release-enabled=true")
			.run((context) -> assertThat(locksOperations(context)).containsExactly(OperationType.READ));
	}

	@Test
	void anAnnotatedLocksKeyIsMaskedAfterItsNameInBothViews() {
		this.runner.run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			try (LockHandle handle = context.getBean(LockService.class)
				.acquire("Wallets.withdraw:alice", HOLD.withName("Wallets.withdraw"))) {
				assertThat(instanceLocks(endpoint, SecurityContext.NONE)).singleElement().satisfies((lock) -> {
					assertThat(lock.name()).isEqualTo("Wallets.withdraw");
					assertThat(lock.key()).isEqualTo("Wallets.withdraw:******");
					assertThat(lock.fencingToken()).isEqualTo(handle.fencingToken());
				});
				ClusterLocks cluster = (ClusterLocks) endpoint.locks("cluster", SecurityContext.NONE);
				assertThat(cluster.locks()).singleElement().satisfies((lock) -> {
					assertThat(lock.name()).isEqualTo("Wallets.withdraw");
					assertThat(lock.key()).isEqualTo("Wallets.withdraw:******");
					assertThat(lock.holderInstance()).isEqualTo("node-1");
					assertThat(lock.remainingTtlMillis()).isBetween(1L, 30_000L);
				});
			}
		});
	}

	@Test
	void aKeylessLocksNameIsShownInTheClusterViewWhileKeysStayMasked() {
		this.runner.run((context) -> {
			LockService locks = context.getBean(LockService.class);
			locks.acquire("stock-report", HOLD.withName("stock-report"));
			locks.acquire("Wallets.withdraw:alice", HOLD.withName("Wallets.withdraw"));
			locks.acquire("refund-7", HOLD);

			ClusterLocks cluster = (ClusterLocks) context.getBean(LocksEndpoint.class)
				.locks("cluster", SecurityContext.NONE);
			assertThat(cluster.locks()).extracting(ClusterLock::name, ClusterLock::key, ClusterLock::holderInstance)
				.containsExactlyInAnyOrder(Tuple.tuple("stock-report", "stock-report", "node-1"),
						Tuple.tuple("Wallets.withdraw", "Wallets.withdraw:******", "node-1"),
						Tuple.tuple(null, "******", "node-1"));
		});
	}

	@Test
	void aProgrammaticKeyIsMaskedWholeWhateverItsShape() {
		this.runner.run((context) -> {
			LockService locks = context.getBean(LockService.class);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			locks.acquire("invoice-42", HOLD.withName("invoice"));
			locks.acquire("refund-7", HOLD);
			locks.acquire("payment:9", HOLD);

			assertThat(instanceLocks(endpoint, SecurityContext.NONE)).extracting(HeldLock::name, HeldLock::key)
				.containsExactlyInAnyOrder(Tuple.tuple("invoice", "******"),
						Tuple.tuple(null, "******"),
						Tuple.tuple(null, "******"));
		});
	}

	@Test
	void keysAreShownWhenAlwaysAllowed() {
		this.runner.withPropertyValues("management.endpoint.locks.show-values=always").run((context) -> {
			context.getBean(LockService.class).acquire("invoice-42", HOLD.withName("invoice"));
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);

			assertThat(instanceLocks(endpoint, SecurityContext.NONE)).extracting(HeldLock::key)
				.containsExactly("invoice-42");
			assertThat(((ClusterLocks) endpoint.locks("cluster", SecurityContext.NONE)).locks())
				.extracting(ClusterLock::key)
				.containsExactly("invoice-42");
		});
	}

	@Test
	void whenAuthorizedShowsKeysOnlyToAPrincipalInOneOfTheRoles() {
		this.runner.withPropertyValues("management.endpoint.locks.show-values=when-authorized",
				"management.endpoint.locks.roles=ops")
			.run((context) -> {
				context.getBean(LockService.class).acquire("invoice-42", HOLD.withName("invoice"));
				LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);

				assertThat(instanceLocks(endpoint, SecurityContext.NONE)).extracting(HeldLock::key)
					.containsExactly("******");
				assertThat(instanceLocks(endpoint, principal("mallory", "customer"))).extracting(HeldLock::key)
					.containsExactly("******");
				assertThat(((ClusterLocks) endpoint.locks("cluster", principal("mallory", "customer"))).locks())
					.extracting(ClusterLock::key)
					.containsExactly("******");
				assertThat(instanceLocks(endpoint, principal("olivia", "ops"))).extracting(HeldLock::key)
					.containsExactly("invoice-42");
			});
	}

	@Test
	void whenAuthorizedWithoutRolesShowsKeysToAnyAuthenticatedPrincipal() {
		this.runner.withPropertyValues("management.endpoint.locks.show-values=when-authorized").run((context) -> {
			context.getBean(LockService.class).acquire("invoice-42", HOLD.withName("invoice"));
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);

			assertThat(instanceLocks(endpoint, SecurityContext.NONE)).extracting(HeldLock::key)
				.containsExactly("******");
			assertThat(instanceLocks(endpoint, principal("mallory", "customer"))).extracting(HeldLock::key)
				.containsExactly("invoice-42");
		});
	}

	@Test
	void forcedReleaseDeletesOnlyTheLockAndKeepsTheFencingCounter(CapturedOutput output) {
		this.runner.run((context) -> {
			LockService locks = context.getBean(LockService.class);
			LockHandle evicted = locks.acquire("job:1", HOLD);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);

			assertThat(endpoint.release("job:1", principal("olivia", "ops")))
				.isEqualTo(new ForcedRelease("job:1", true));
			assertThat(this.redis.command("EXISTS", "lock:{job:1}")).isEqualTo("0");
			assertThat(endpoint.release("job:1", SecurityContext.NONE)).isEqualTo(new ForcedRelease("job:1", false));
			LockHandle next = locks.acquire("job:1", HOLD);
			assertThat(next.fencingToken()).isGreaterThan(evicted.fencingToken());
			assertThat(output).contains("Forced release of lock 'job:******' requested by olivia")
				.doesNotContain("job:1");
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
					// A check sent before Lettuce saw the connection close waits for its answer until the timeout.
					await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
						Health down = health.health();
						assertThat(down.getStatus()).isEqualTo(Status.DOWN);
						assertThat(down.getDetails()).containsEntry("store", "redis-standalone")
							.containsEntry("error", "connection lost, Lettuce is reconnecting");
					});
				});
		}
	}

	@Test
	void healthSaysConnectionRefusedWhenRedisWasNeverThere() {
		this.runner.withPropertyValues("spring.data.redis.port=" + RedisServer.freePort()).run((context) -> {
			Health down = context.getBean(LocksHealthIndicator.class).health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(down.getDetails()).containsEntry("store", "redis-standalone")
				.containsEntry("error", "connection refused");
		});
	}

	@Test
	void healthSaysHowLongItWaitedForASilentRedis() {
		try (RedisServer own = RedisServer.start()) {
			this.runner.withPropertyValues("spring.data.redis.port=" + own.port(), "locksmith.redis-timeout=300ms")
				.run((context) -> {
					LocksHealthIndicator health = context.getBean(LocksHealthIndicator.class);
					assertThat(health.health().getStatus()).isEqualTo(Status.UP);
					own.pause();
					Health down = health.health();
					own.resume();
					assertThat(down.getStatus()).isEqualTo(Status.DOWN);
					assertThat(down.getDetails()).containsEntry("error", "timed out after 300ms");
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
	void theHealthContributorCanBeSwitchedOff() {
		this.runner.withPropertyValues("management.health.locks.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksHealthIndicator.class)
				.doesNotHaveBean(LostLeaseTracker.class)
				.hasSingleBean(LocksEndpoint.class));
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

	/** Holds a lock named "report" with a short renewed lease until renewal ran, then deletes it behind its back. */
	private void loseALease(LockService locks) throws InterruptedException {
		LockHandle handle = locks.acquire("report-2026", LockOptions.ofTtl(Duration.ofMillis(600)).withName("report"));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> locks.heldLocks().stream().anyMatch((lock) -> lock.renewals() > 0));
		this.redis.command("DEL", "lock:{report-2026}");
		await().atMost(Duration.ofSeconds(10)).until(() -> !handle.isHeld());
	}

	private static List<HeldLock> instanceLocks(LocksEndpoint endpoint, SecurityContext securityContext) {
		return ((InstanceLocks) endpoint.locks(null, securityContext)).locks();
	}

	/** Actuator's own discovery of endpoints and their operations, over JMX, which needs no web server. */
	private ApplicationContextRunner withEndpointDiscovery() {
		return this.runner
			.withConfiguration(AutoConfigurations.of(JmxAutoConfiguration.class, EndpointAutoConfiguration.class,
					JmxEndpointAutoConfiguration.class))
			.withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=locks");
	}

	private static Set<OperationType> locksOperations(ApplicationContext context) {
		ExposableJmxEndpoint locks = context.getBean(JmxEndpointsSupplier.class)
			.getEndpoints()
			.stream()
			.filter((endpoint) -> endpoint.getEndpointId().toString().equals("locks"))
			.findFirst()
			.orElseThrow();
		return locks.getOperations().stream().map(JmxOperation::getType).collect(Collectors.toSet());
	}

	/** An authenticated caller who is in {@code role} and in no other. */
	private static SecurityContext principal(String name, String role) {
		Principal principal = () -> name;
		return new SecurityContext() {

			@Override
			public @Nullable Principal getPrincipal() {
				return principal;
			}

			@Override
			public boolean isUserInRole(String asked) {
				return asked.equals(role);
			}

		};
	}

}
