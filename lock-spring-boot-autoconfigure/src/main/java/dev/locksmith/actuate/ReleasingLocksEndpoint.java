package dev.locksmith.actuate;

import java.security.Principal;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockService;
import dev.locksmith.core.internal.KeyMasking;

/**
 * The {@code locks} endpoint with forced release, {@code DELETE /actuator/locks/{key}}: present only
 * when {@code locksmith.actuator.release-enabled=true}. Every release is logged at WARN with who
 * asked; the fencing counter is kept, so the evicted holder's fenced writes stay rejected.
 *
 * @since 0.1.0
 */
@Endpoint(id = "locks")
public class ReleasingLocksEndpoint extends LocksEndpoint {

	private static final Log logger = LogFactory.getLog(ReleasingLocksEndpoint.class);

	public ReleasingLocksEndpoint(LockService locks, LockAdministration administration, Show showKeys,
			Set<String> roles) {
		super(locks, administration, showKeys, roles);
	}

	/** Deletes the lock of {@code key} whatever its owner, and says whether there was one. */
	@DeleteOperation
	public Map<String, Object> release(@Selector String key, SecurityContext securityContext) {
		Principal principal = securityContext.getPrincipal();
		String who = (principal != null) ? principal.getName() : "an anonymous caller";
		boolean released = administration().forceRelease(key);
		logger.warn("Forced release of lock '" + KeyMasking.mask(key) + "' requested by " + who
				+ " through the locks endpoint: "
				+ (released ? "released" : "no such lock"));
		return Map.of("key", key, "released", released);
	}

}
