package dev.locksmith.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;

/**
 * The {@code locks} health contributor: UP while the store answers for locking, DOWN when it does
 * not, with the reason an operator can act on ({@code connection refused}, {@code timed out after 2s},
 * {@code no quorum (1 of 3)}, {@code busy: 4 earlier calls still wait for the store}). A lost lease
 * alone turns it DOWN only when configured to. Details: store (and the state of each of its servers
 * when it has several), held locks, and in {@code heldByMode} how many of them are {@code write} locks,
 * {@code read} locks and {@code permits} (the values of the observations' {@code mode} tag; always all
 * three), leases lost since start and the last loss, and what the store adds, such as the topology of a
 * Redis Cluster as the connection sees it or the Redlock servers' clock offsets; a warning there keeps
 * it UP.
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
		List<LockInfo> held = this.locks.heldLocks();
		builder.withDetail("held", held.size())
			.withDetail("heldByMode", byMode(held))
			.withDetail("lostLeases", this.lostLeases.lostCount());
		if (this.lostLeases.lastLoss() != null) {
			builder.withDetail("lastLostLeaseAt", this.lostLeases.lastLoss());
		}
		builder.withDetail("store", this.administration.storeDescription());
		try {
			Map<String, String> nodes = this.administration.nodeStates();
			if (!nodes.isEmpty()) {
				builder.withDetail("nodes", nodes);
			}
			builder.withDetails(this.administration.storeDetails());
			this.administration.ping();
		}
		catch (LockUnavailableException ex) {
			builder.down().withDetail("error", ex.getReason());
			return;
		}
		if (this.downOnLostLease && this.lostLeases.lostCount() > 0) {
			builder.down();
		}
		else {
			builder.up();
		}
	}

	/** How many of {@code held} are write locks, read locks and permits, named as the observations' mode tag. */
	private static Map<String, Integer> byMode(List<LockInfo> held) {
		Map<String, Integer> counts = new LinkedHashMap<>();
		for (String mode : List.of("write", "read", "permits")) {
			counts.put(mode, 0);
		}
		for (LockInfo lock : held) {
			String mode = (lock.permits() > 1) ? "permits" : (lock.mode() == LockMode.READ) ? "read" : "write";
			counts.merge(mode, 1, Integer::sum);
		}
		return counts;
	}

}
