/**
 * Turns the measured figures into docs/benchmarks.md, docs/benchmarks.png and target verdicts.
 */
@NullMarked
package dev.locksmith.benchmarks.report;

import org.jspecify.annotations.NullMarked;
