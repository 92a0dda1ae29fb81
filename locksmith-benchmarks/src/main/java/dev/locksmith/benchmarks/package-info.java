/**
 * Runs the Locksmith benchmarks against other Redis lock libraries and writes the report.
 */
@NullMarked
package dev.locksmith.benchmarks;

import org.jspecify.annotations.NullMarked;
