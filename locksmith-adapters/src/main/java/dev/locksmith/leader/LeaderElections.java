package dev.locksmith.leader;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.springframework.context.SmartLifecycle;

/**
 * The application's leader elections by role: starts them once the application has started, and
 * stops them, stepping down, before the rest of it stops.
 *
 * @since 0.1.0
 */
public final class LeaderElections implements SmartLifecycle {

	private final Map<String, LeaderElection> byRole = new LinkedHashMap<>();

	private volatile boolean running;

	/**
	 * The given elections, one per role.
	 * @throws IllegalArgumentException when two elections are for one role
	 */
	public LeaderElections(Collection<LeaderElection> elections) {
		for (LeaderElection election : elections) {
			if (this.byRole.putIfAbsent(election.role(), election) != null) {
				throw new IllegalArgumentException("Two leader elections for role '" + election.role() + "'");
			}
		}
	}

	/** The roles that have an election. */
	public Set<String> roles() {
		return this.byRole.keySet();
	}

	/**
	 * The election of {@code role}.
	 * @throws IllegalArgumentException when the role has none
	 */
	public LeaderElection election(String role) {
		LeaderElection election = this.byRole.get(role);
		if (election == null) {
			throw new IllegalArgumentException(
					"No leader election for role '" + role + "'; add it to locksmith.leader.roles");
		}
		return election;
	}

	@Override
	public void start() {
		this.byRole.values().forEach(LeaderElection::start);
		this.running = true;
	}

	@Override
	public void stop() {
		this.byRole.values().forEach(LeaderElection::stop);
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
