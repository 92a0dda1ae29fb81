/**
 * Operating Locksmith: the {@code locks} Actuator endpoint, the {@code locks} health contributor and
 * Micrometer metrics.
 */
@NullMarked
package dev.locksmith.actuate;

import org.jspecify.annotations.NullMarked;
