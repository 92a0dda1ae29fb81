package dev.locksmith.actuate;

import java.util.Map;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockService;

/**
 * The {@code locks} health contributor: UP while the store answers for locking, DOWN when it does
 * not. A lost lease alone turns it DOWN only when configured to. Details: store (and the state of each
 * of its servers when it has several), held locks, leases lost since start and the last loss.
 *
 * @since 0.1.0
 */
public final class LocksHealthIndicator extends AbstractHealthIndicator {

	private final LockService locks;

	private final LockAdministration administration;

	private final LostLeaseTracker lostLeases;

	private final boolean downOnLostLease;

	public LocksHealthIndicator(LockService locks, LockAdministration administration, LostLeaseTracker lostLeases,
			boolean downOnLostLease) {
		super("Lock store health check failed");
		this.locks = locks;
		this.administration = administration;
		this.lostLeases = lostLeases;
		this.downOnLostLease = downOnLostLease;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.withDetail("held", this.locks.heldLocks().size())
			.withDetail("lostLeases", this.lostLeases.lostCount());
		if (this.lostLeases.lastLoss() != null) {
			builder.withDetail("lastLostLeaseAt", this.lostLeases.lastLoss());
		}
		builder.withDetail("store", this.administration.storeDescription());
		Map<String, String> nodes = this.administration.nodeStates();
		if (!nodes.isEmpty()) {
			builder.withDetail("nodes", nodes);
		}
		this.administration.ping();
		builder.withDetail("store", this.administration.storeDescription());
		if (this.downOnLostLease && this.lostLeases.lostCount() > 0) {
			builder.down();
		}
		else {
			builder.up();
		}
	}

}
