package dev.locksmith.benchmarks.scenario;

/**
 * Throughput of several threads.
 *
 * @param opsPerSecond acquire and release pairs per second, all threads together
 */
public record ThroughputFigures(double opsPerSecond) {

}
