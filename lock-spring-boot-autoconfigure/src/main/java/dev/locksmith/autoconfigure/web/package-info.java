/**
 * Auto-configuration of the HTTP answers to lock failures in Spring MVC and WebFlux applications.
 */
@NullMarked
package dev.locksmith.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
