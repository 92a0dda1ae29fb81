package dev.locksmith.autoconfigure.endpoint;

import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the {@code locks} endpoint, bound from management.endpoint.locks.*, as Spring Boot's
 * own endpoints are.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("management.endpoint.locks")
public class LocksEndpointProperties {

	/** When to show lock keys in the endpoint; otherwise they are masked. Default: never. */
	private @Nullable Show showValues;

	/** Roles that may see keys with 'when-authorized'; empty means any authenticated user. */
	private Set<String> roles = new LinkedHashSet<>();

	/** Most waiters the cluster view shows, those that have waited longest; the 'waiters' query parameter overrides it. */
	private int maxWaiters = 100;

	public @Nullable Show getShowValues() {
		return this.showValues;
	}

	public void setShowValues(@Nullable Show showValues) {
		this.showValues = showValues;
	}

	public Set<String> getRoles() {
		return this.roles;
	}

	public void setRoles(Set<String> roles) {
		this.roles = roles;
	}

	public int getMaxWaiters() {
		return this.maxWaiters;
	}

	public void setMaxWaiters(int maxWaiters) {
		this.maxWaiters = maxWaiters;
	}

}
