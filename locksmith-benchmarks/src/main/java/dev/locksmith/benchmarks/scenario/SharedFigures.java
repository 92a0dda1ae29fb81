package dev.locksmith.benchmarks.scenario;

/**
 * What the worker JVMs achieved on one shared lock: a read/write lock or a key's permits.
 *
 * @param sectionsPerSecond completed sections per second, all threads together
 * @param maxWaitMillis longest time one section waited for its lock, in milliseconds
 * @param writerMaxWaitMillis longest time one write section waited, in milliseconds; 0 without writers
 * @param mostHolders the most readers, or permit holders, seen holding at once
 * @param overlaps sections that found a holder they exclude, or more holders than the permits; 0 unless the lock failed
 */
public record SharedFigures(double sectionsPerSecond, double maxWaitMillis, double writerMaxWaitMillis,
		long mostHolders, long overlaps) {

}
