/**
 * Spring Boot auto-configuration of the in-memory lock store, selected with locksmith.store=in-memory.
 */
@NullMarked
package dev.locksmith.test.autoconfigure;

import org.jspecify.annotations.NullMarked;
