package dev.locksmith.benchmarks.scenario;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Measures this JVM's retained heap: the bytes still in use after full collections. */
final class HeapMeter {

	private static final int COLLECTIONS = 3;

	private HeapMeter() {
	}

	/** Used heap bytes after a few full collections, so that only reachable objects count. */
	static long retainedBytes() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		for (int i = 0; i < COLLECTIONS; i++) {
			memory.gc();
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

}
