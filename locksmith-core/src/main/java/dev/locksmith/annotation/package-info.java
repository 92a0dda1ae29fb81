/**
 * The {@link dev.locksmith.annotation.DistributedLock} annotation and its options.
 */
@NullMarked
package dev.locksmith.annotation;

import org.jspecify.annotations.NullMarked;
