/**
 * Auto-configuration of leader elections for the roles of {@code locksmith.leader.roles}, and of
 * {@code @LeaderOnly}.
 */
@NullMarked
package dev.locksmith.leader.autoconfigure;

import org.jspecify.annotations.NullMarked;
