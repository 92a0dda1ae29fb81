/**
 * The {@code @DistributedLock} aspect: the advisor and its interceptor, SpEL key resolution and the
 * adapters that hold a lock until an asynchronous result completes.
 */
@NullMarked
package dev.locksmith.aop;

import org.jspecify.annotations.NullMarked;
