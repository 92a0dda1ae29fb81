/**
 * The {@code leadership} Actuator endpoint: who leads each role of the fleet.
 */
@NullMarked
package dev.locksmith.leader.actuate;

import org.jspecify.annotations.NullMarked;
