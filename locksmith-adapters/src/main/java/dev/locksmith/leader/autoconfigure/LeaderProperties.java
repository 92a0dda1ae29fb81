package dev.locksmith.leader.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Leader elections: the roles, and the lease their leaders hold.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("locksmith.leader")
public class LeaderProperties {

	/** Roles that elect one leader in the fleet, each on the lock {@code leader:<role>}. */
	private List<String> roles = new ArrayList<>();

	/**
	 * Lease of a leader, renewed every third of it; a leader steps down with a quarter of it left
	 * unrenewed, and a dead leader is replaced once it ends, at the next instance's re-check.
	 */
	private Duration ttl = Duration.ofSeconds(15);

	public List<String> getRoles() {
		return this.roles;
	}

	public void setRoles(List<String> roles) {
		this.roles = roles;
	}

	public Duration getTtl() {
		return this.ttl;
	}

	public void setTtl(Duration ttl) {
		this.ttl = ttl;
	}

}
