package dev.locksmith.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.locksmith.actuate.LockMetricsListener;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockService;

/**
 * Auto-configures the counters of lost leases and renewals. Acquisitions and holds are observations of
 * the engine, measured through the application's {@code ObservationRegistry}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class, afterName = {
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ LockService.class, MeterRegistry.class })
public final class LocksmithMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockMetricsListener lockMetricsListener(MeterRegistry registry) {
		return new LockMetricsListener(registry);
	}

}
