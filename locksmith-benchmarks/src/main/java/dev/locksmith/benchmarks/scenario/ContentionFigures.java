package dev.locksmith.benchmarks.scenario;

/**
 * What several JVMs achieved on one key with a read-modify-write critical section.
 *
 * @param sectionsPerSecond completed critical sections per second, all threads together
 * @param sections completed critical sections
 * @param lostUpdates completed sections whose increment is missing from the counter; 0 unless mutual exclusion failed
 * @param fairness fewest sections of one thread divided by the most of one thread
 * @param maxWaitMillis longest time one thread waited to acquire the lock, in milliseconds
 */
public record ContentionFigures(double sectionsPerSecond, long sections, long lostUpdates, double fairness,
		double maxWaitMillis) {

}
