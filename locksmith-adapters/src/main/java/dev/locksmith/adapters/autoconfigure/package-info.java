/**
 * Auto-configuration of the adapters: each one only when its library is on the class path, a
 * {@link dev.locksmith.core.LockService} exists and the application declared no lock provider or
 * registry of its own.
 */
@NullMarked
package dev.locksmith.adapters.autoconfigure;

import org.jspecify.annotations.NullMarked;
