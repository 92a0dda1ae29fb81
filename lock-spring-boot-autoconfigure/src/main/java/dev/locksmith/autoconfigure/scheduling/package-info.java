/**
 * Auto-configuration of how Spring Boot's task scheduler logs a scheduled job that could not take its lock.
 */
@NullMarked
package dev.locksmith.autoconfigure.scheduling;

import org.jspecify.annotations.NullMarked;
