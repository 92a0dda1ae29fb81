package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.observation.DefaultLockAcquisitionObservationConvention;
import dev.locksmith.core.observation.LockAcquisitionObservationConvention;
import dev.locksmith.core.observation.LockHoldContext;
import dev.locksmith.core.observation.LockHoldObservationConvention;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The engine's observations of acquisitions and holds, through the application's registry. */
class LocksmithObservationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final LockOptions INVOICE = LockOptions.ofTtl(Duration.ofSeconds(30)).withName("invoice");

	private RedisServer redis;

	private ApplicationContextRunner runner;

	@BeforeEach
	void configure() {
		this.redis = redisServer.server();
		this.runner = new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + this.redis.port())
			.withBean(TestObservationRegistry.class, TestObservationRegistry::create);
	}

	@Test
	void acquisitionsAreObservedByNameAndOutcomeNeverByKey() {
		this.runner.run((context) -> {
			TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);
			LockService locks = context.getBean(LockService.class);
			try (LockHandle held = locks.acquire("invoice-42", INVOICE)) {
				assertThat(locks.tryAcquire("invoice-42", INVOICE)).isEmpty();
			}
			locks.acquire("refund-7", LockOptions.ofTtl(Duration.ofSeconds(30))).close();

			assertThat(observations).hasNumberOfObservationsWithNameEqualTo("locksmith.acquire", 3)
				.hasAnObservation((observation) -> observation.hasNameEqualTo("locksmith.acquire")
					.hasLowCardinalityKeyValue("name", "invoice")
					.hasLowCardinalityKeyValue("outcome", "acquired")
					.doesNotHaveError())
				.hasAnObservation((observation) -> observation.hasNameEqualTo("locksmith.acquire")
					.hasLowCardinalityKeyValue("name", "invoice")
					.hasLowCardinalityKeyValue("outcome", "busy"))
				.hasAnObservation((observation) -> observation.hasNameEqualTo("locksmith.acquire")
					.hasLowCardinalityKeyValue("name", "unnamed")
					.hasLowCardinalityKeyValue("outcome", "acquired"))
				.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
					.allSatisfy((observed) -> assertThat(observed.getAllKeyValues())
						.noneMatch((keyValue) -> keyValue.getValue().matches(".*(42|7).*"))));
		});
	}

	@Test
	void acquisitionsAndHoldsAreTaggedByMode() {
		this.runner.run((context) -> {
			TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);
			LockService locks = context.getBean(LockService.class);
			locks.acquire("invoice-42", INVOICE).close();
			locks.acquire("invoice-43", INVOICE.withMode(LockMode.READ)).close();
			locks.acquire("invoice-44", INVOICE.withPermits(4)).close();

			for (String mode : List.of("write", "read", "permits")) {
				for (String name : List.of("locksmith.acquire", "locksmith.held")) {
					assertThat(observations).hasAnObservation((observation) -> observation.hasNameEqualTo(name)
						.hasLowCardinalityKeyValue("name", "invoice")
						.hasLowCardinalityKeyValue("mode", mode));
				}
			}
		});
	}

	@Test
	void aHoldIsObservedFromGrantToReleaseUnderTheCallersObservation() {
		this.runner.run((context) -> {
			TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);
			LockService locks = context.getBean(LockService.class);
			Observation caller = Observation.start("caller", observations);
			LockHandle held;
			try (Observation.Scope scope = caller.openScope()) {
				held = locks.acquire("invoice-42", INVOICE);
			}
			assertThat(observations).hasAnObservation((observation) -> observation.hasNameEqualTo("locksmith.held")
				.hasLowCardinalityKeyValue("name", "invoice")
				.doesNotHaveLowCardinalityKeyValueWithKey("outcome")
				.hasParentObservationEqualTo(caller));
			held.close();
			caller.stop();

			assertThat(observations).hasAnObservation((observation) -> observation.hasNameEqualTo("locksmith.held")
				.hasLowCardinalityKeyValue("name", "invoice")
				.hasLowCardinalityKeyValue("outcome", "released")
				.hasParentObservationEqualTo(caller))
				.hasAnObservation((observation) -> observation.hasNameEqualTo("locksmith.acquire")
					.hasParentObservationEqualTo(caller));
		});
	}

	@Test
	void aLostLeaseEndsTheHoldWithTheOutcomeLost() {
		this.runner.run((context) -> {
			TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);
			LockService locks = context.getBean(LockService.class);
			LockHandle handle = locks.acquire("invoice-43", INVOICE);
			this.redis.command("DEL", "lock:{invoice-43}");
			assertThat(handle.extend(Duration.ofSeconds(30))).as("finds the lease lost").isFalse();
			handle.close();

			assertThat(observations).hasAnObservation((observation) -> observation.hasNameEqualTo("locksmith.held")
				.hasLowCardinalityKeyValue("outcome", "lost"));
		});
	}

	@Test
	void anUnreachableStoreIsObservedAsUnavailableWithTheError() {
		this.runner
			.withPropertyValues("spring.data.redis.port=" + RedisServer.freePort(), "locksmith.redis-timeout=300ms")
			.run((context) -> {
				TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);
				assertThatExceptionOfType(LockUnavailableException.class)
					.isThrownBy(() -> context.getBean(LockService.class).tryAcquire("invoice-44", INVOICE));

				assertThat(observations).hasAnObservation((observation) -> observation
					.hasNameEqualTo("locksmith.acquire")
					.hasLowCardinalityKeyValue("outcome", "unavailable")
					.hasError());
			});
	}

	@Test
	void withSpringBootsObservationAndMetricsTheObservationsBecomeTimers() {
		withBootMetrics().run((context) -> {
				assertThat(context).hasSingleBean(ObservationRegistry.class);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				LockService locks = context.getBean(LockService.class);
				LockHandle held = locks.acquire("invoice-42", INVOICE);
				assertThat(meters.get("locksmith.held.active").tags("name", "invoice").longTaskTimer().activeTasks())
					.isEqualTo(1);
				assertThat(meters.get("locksmith.acquire.active").tags("name", "invoice").longTaskTimer().activeTasks())
					.as("no acquisition under way")
					.isZero();
				held.close();

				assertThat(meters.get("locksmith.acquire").tags("name", "invoice", "outcome", "acquired").timer())
					.extracting(Timer::count)
					.isEqualTo(1L);
				assertThat(meters.get("locksmith.held").tags("name", "invoice", "outcome", "released").timer().count())
					.isEqualTo(1);
				assertThat(meters.get("locksmith.held.active").tags("name", "invoice").longTaskTimer().activeTasks())
					.isZero();
			});
	}

	@Test
	void withSpringBootsMetricsLostLeasesAndRenewalsAreOutcomesAndEventsOfTheHold() {
		withBootMetrics().run((context) -> {
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				LockService locks = context.getBean(LockService.class);
				LockHandle handle = locks.acquire("report-2026",
						LockOptions.ofTtl(Duration.ofMillis(600)).withName("report"));
				await().atMost(Duration.ofSeconds(10))
					.until(() -> locks.heldLocks().stream().anyMatch((lock) -> lock.renewals() > 0));
				this.redis.command("DEL", "lock:{report-2026}");
				await().atMost(Duration.ofSeconds(10)).until(() -> !handle.isHeld());

				assertThat(meters.get("locksmith.held").tags("name", "report", "outcome", "lost").timer().count())
					.isEqualTo(1);
				assertThat(meters.get("locksmith.held.renewed").tags("name", "report").counter().count())
					.isPositive();
				assertThat(meters.find("locksmith.lost").meters()).as("no second count of lost leases").isEmpty();
				assertThat(meters.getMeters()).allSatisfy((meter) -> assertThat(meter.getId().getTags())
					.noneMatch((tag) -> tag.getValue().contains("2026")));
			});
	}

	@Test
	void theApplicationsConventionsNameAndTagTheObservations() {
		this.runner.withBean(LockAcquisitionObservationConvention.class, RenamedAcquisitions::new)
			.withBean(LockHoldObservationConvention.class, RenamedHolds::new)
			.run((context) -> {
				TestObservationRegistry observations = context.getBean(TestObservationRegistry.class);
				context.getBean(LockService.class).acquire("invoice-42", INVOICE).close();

				assertThat(observations).doesNotHaveAnyRemainingCurrentObservation()
					.hasNumberOfObservationsWithNameEqualTo("locksmith.acquire", 0)
					.hasNumberOfObservationsWithNameEqualTo("locksmith.held", 0)
					.hasAnObservation((observation) -> observation.hasNameEqualTo("app.lock.acquire")
						.hasLowCardinalityKeyValue("name", "invoice")
						.hasLowCardinalityKeyValue("outcome", "acquired"))
					.hasAnObservation((observation) -> observation.hasNameEqualTo("app.lock.held")
						.hasLowCardinalityKeyValue("lock", "invoice")
						.doesNotHaveLowCardinalityKeyValueWithKey("outcome"));
			});
	}

	/** Locksmith with Spring Boot's observation and metrics auto-configuration. */
	private ApplicationContextRunner withBootMetrics() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
					SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
					DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + this.redis.port());
	}

	/** Renames acquisitions and keeps the default tags. */
	static class RenamedAcquisitions extends DefaultLockAcquisitionObservationConvention {

		@Override
		public String getName() {
			return "app.lock.acquire";
		}

	}

	/** Renames holds and tags them with the lock alone. */
	static class RenamedHolds implements LockHoldObservationConvention {

		@Override
		public String getName() {
			return "app.lock.held";
		}

		@Override
		public KeyValues getLowCardinalityKeyValues(LockHoldContext context) {
			return KeyValues.of("lock", String.valueOf(context.getLockName()));
		}

	}

}
