/**
 * The lock contract that every {@code LockStore} must keep, as an abstract JUnit test class that a
 * store of your own extends.
 */
@NullMarked
package dev.locksmith.test.contract;

import org.jspecify.annotations.NullMarked;
