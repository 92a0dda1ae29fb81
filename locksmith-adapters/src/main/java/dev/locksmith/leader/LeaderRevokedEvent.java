package dev.locksmith.leader;

/**
 * This instance is no longer the leader of {@code role}: it stopped, or its lease was lost or could
 * not be renewed in time.
 *
 * @param role the role no longer led
 * @param fencingToken the number of the leadership that ended
 * @since 0.1.0
 */
public record LeaderRevokedEvent(String role, long fencingToken) {
}
