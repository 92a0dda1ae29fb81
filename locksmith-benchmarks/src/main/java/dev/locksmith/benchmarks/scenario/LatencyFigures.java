package dev.locksmith.benchmarks.scenario;

/**
 * Latency of an uncontended acquire and release.
 *
 * @param p50Micros median, in microseconds
 * @param p99Micros 99th percentile, in microseconds
 * @param samples number of acquire and release pairs measured
 */
public record LatencyFigures(double p50Micros, double p99Micros, long samples) {

}
