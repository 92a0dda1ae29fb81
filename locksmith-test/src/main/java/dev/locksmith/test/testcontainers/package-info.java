/**
 * Redis in a Testcontainers container, connected to the application through @ServiceConnection.
 */
@NullMarked
package dev.locksmith.test.testcontainers;

import org.jspecify.annotations.NullMarked;
