/**
 * Public locking API and the engine behind it: acquisition, waiting, renewal and the registry
 * of locks held by this process, on top of the {@link dev.locksmith.core.LockStore} SPI.
 */
@NullMarked
package dev.locksmith.core;

import org.jspecify.annotations.NullMarked;
