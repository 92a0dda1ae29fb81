package dev.locksmith.benchmarks.lock;

import org.springframework.stereotype.Service;

import dev.locksmith.annotation.DistributedLock;

/** A service whose one method runs a critical section under {@code @DistributedLock}. */
@Service
public class LockedSection {

	/** Runs {@code section} while this process holds the lock of {@code key}. */
	@DistributedLock(key = "#key", ttl = "30s", waitTime = "10s")
	public void run(String key, Runnable section) {
		section.run();
	}

}
