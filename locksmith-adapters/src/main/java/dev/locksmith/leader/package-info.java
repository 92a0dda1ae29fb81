/**
 * One leader per role in the fleet, on a renewed Locksmith lock: elections, grant and revoke events
 * with the fencing token, and {@link dev.locksmith.leader.LeaderOnly @LeaderOnly} methods.
 */
@NullMarked
package dev.locksmith.leader;

import org.jspecify.annotations.NullMarked;
