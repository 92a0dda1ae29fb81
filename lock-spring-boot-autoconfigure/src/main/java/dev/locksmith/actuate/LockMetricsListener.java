package dev.locksmith.actuate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.locksmith.core.LockEventListener;
import dev.locksmith.core.LockLostEvent;
import dev.locksmith.core.internal.KeyMasking;
import dev.locksmith.core.internal.LockNameTags;

/**
 * Counts what the engine does in the background: {@code locksmith.lost} (leases lost before release,
 * by lock name, never by key) and {@code locksmith.renewals} (leases extended). Acquisitions and holds
 * are measured by the engine's observations.
 *
 * @since 0.1.0
 */
public final class LockMetricsListener implements LockEventListener {

	private final MeterRegistry registry;

	private final Counter renewals;

	public LockMetricsListener(MeterRegistry registry) {
		this.registry = registry;
		this.renewals = Counter.builder("locksmith.renewals").description("Leases extended").register(registry);
	}

	@Override
	public void leaseLost(LockLostEvent event) {
		Counter.builder("locksmith.lost")
			.description("Leases lost before their release")
			.tag("name", LockNameTags.of(event.name()))
			.register(this.registry)
			.increment();
	}

	@Override
	public void leasesRenewed(int count) {
		this.renewals.increment(count);
	}

}
