/**
 * Test support for applications that use Locksmith: AssertJ assertions on locks.
 */
@NullMarked
package dev.locksmith.test;

import org.jspecify.annotations.NullMarked;
