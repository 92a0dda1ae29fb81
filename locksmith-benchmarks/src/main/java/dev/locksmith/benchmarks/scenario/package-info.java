/**
 * The benchmark scenarios and the figures each one measures.
 */
@NullMarked
package dev.locksmith.benchmarks.scenario;

import org.jspecify.annotations.NullMarked;
