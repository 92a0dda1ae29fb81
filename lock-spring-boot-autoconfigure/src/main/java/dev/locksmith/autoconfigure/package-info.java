/**
 * Spring Boot auto-configuration of Locksmith and its {@code locksmith.*} properties.
 */
@NullMarked
package dev.locksmith.autoconfigure;

import org.jspecify.annotations.NullMarked;
