package dev.locksmith.leader.actuate;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.leader.LeaderElection;
import dev.locksmith.leader.LeaderElection.Leadership;
import dev.locksmith.leader.LeaderElections;

/**
 * The {@code leadership} endpoint: each role that has an election, the instance that leads it as the
 * lock store says, and, when this instance leads, since when and with which fencing token. Read-only.
 * <p>
 * The leader is the holder of the role's lock among the first {@value #STORED_LOCKS_READ} locks the
 * store lists, read in one pass per request, as the {@code locks} endpoint's cluster view reads them.
 * The store keeps no grant time, so only the leader itself can say since when it leads.
 *
 * @since 0.1.0
 */
@Endpoint(id = "leadership", defaultAccess = Access.READ_ONLY)
public class LeadershipEndpoint {

	/** Most locks read from the store to find the leaders' locks among them. */
	static final int STORED_LOCKS_READ = 10_000;

	private final LeaderElections elections;

	private final LockAdministration administration;

	public LeadershipEndpoint(LeaderElections elections, LockAdministration administration) {
		this.elections = elections;
		this.administration = administration;
	}

	@ReadOperation
	public LeadershipDescriptor leadership() {
		Map<String, String> holders = this.administration.storedLocks(STORED_LOCKS_READ)
			.stream()
			.collect(Collectors.toMap(StoredLock::key, StoredLock::holderInstance, (first, second) -> first));
		Map<String, RoleLeadership> roles = new LinkedHashMap<>();
		for (String role : this.elections.roles()) {
			LeaderElection election = this.elections.election(role);
			roles.put(role, RoleLeadership.of(holders.get(election.lockKey()), election.leadership()));
		}
		return new LeadershipDescriptor(roles);
	}

	/** What the endpoint returns: the leadership of each role, by role. */
	public record LeadershipDescriptor(Map<String, RoleLeadership> roles) {
	}

	/**
	 * The leadership of one role.
	 *
	 * @param leader the id of the instance that holds the role's lock in the store, or {@code null} when none does
	 * @param leading whether this instance leads the role
	 * @param since when this instance's leadership began, or {@code null} when it does not lead
	 * @param fencingToken the fencing token of this instance's leadership, or {@code null} when it does not lead
	 */
	public record RoleLeadership(@Nullable String leader, boolean leading, @Nullable Instant since,
			@Nullable Long fencingToken) {

		static RoleLeadership of(@Nullable String leader, Optional<Leadership> ours) {
			return ours.map((leadership) -> new RoleLeadership(leader, true, leadership.since(), leadership.fencingToken()))
				.orElseGet(() -> new RoleLeadership(leader, false, null, null));
		}

	}

}
