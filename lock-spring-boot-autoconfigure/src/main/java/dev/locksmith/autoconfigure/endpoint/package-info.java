/**
 * Auto-configuration of the {@code locks} Actuator endpoint.
 */
@NullMarked
package dev.locksmith.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
