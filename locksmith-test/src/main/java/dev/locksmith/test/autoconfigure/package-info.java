/**
 * The in-memory lock store's beans, which Locksmith's auto-configuration imports when locksmith.store=in-memory.
 */
@NullMarked
package dev.locksmith.test.autoconfigure;

import org.jspecify.annotations.NullMarked;
