package dev.locksmith.actuate;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockEventListener;
import dev.locksmith.core.LockLostEvent;

/**
 * Counts the leases this instance lost since it started, and remembers when the last one was lost.
 *
 * @since 0.1.0
 */
public final class LostLeaseTracker implements LockEventListener {

	private final AtomicLong lost = new AtomicLong();

	private final AtomicReference<@Nullable Instant> lastLoss = new AtomicReference<>();

	@Override
	public void leaseLost(LockLostEvent event) {
		this.lost.incrementAndGet();
		this.lastLoss.set(event.detectedAt());
	}

	/** Leases lost since start. */
	long lostCount() {
		return this.lost.get();
	}

	/** When the last lease was lost, or {@code null}. */
	@Nullable Instant lastLoss() {
		return this.lastLoss.get();
	}

}
