/**
 * The starter on Jedis, with Lettuce left out of the class path: the lock contract, the
 * auto-configuration, and worker JVMs that wait for one another and shut down with Redis gone.
 */
@NullMarked
package dev.locksmith.jedis;

import org.jspecify.annotations.NullMarked;
