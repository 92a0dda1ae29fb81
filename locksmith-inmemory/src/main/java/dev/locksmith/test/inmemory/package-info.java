/**
 * A lock store in this JVM's memory, for fast tests of code that uses Locksmith.
 */
@NullMarked
package dev.locksmith.test.inmemory;

import org.jspecify.annotations.NullMarked;
