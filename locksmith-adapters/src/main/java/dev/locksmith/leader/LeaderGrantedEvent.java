package dev.locksmith.leader;

/**
 * This instance became the leader of {@code role}: send {@code fencingToken} with every write the
 * leader makes, so that the resource rejects the writes of a leader that has been replaced.
 *
 * @param role the role led
 * @param fencingToken the number of this leadership, higher than that of every earlier leader of the role
 * @since 0.1.0
 */
public record LeaderGrantedEvent(String role, long fencingToken) {
}
