package dev.locksmith.benchmarks.lock;

import org.springframework.context.ApplicationContext;

import dev.locksmith.core.LockBusyException;

/** Locksmith's {@code @DistributedLock}, through the proxy of {@link LockedSection}. */
final class LocksmithAnnotatedLock implements BenchLock {

	private final LockedSection lockedSection;

	LocksmithAnnotatedLock(ApplicationContext context) {
		this.lockedSection = context.getBean(LockedSection.class);
	}

	@Override
	public void runLocked(String key, Runnable section) {
		while (true) {
			try {
				this.lockedSection.run(key, section);
				return;
			}
			catch (LockBusyException ex) {
				// busy for the annotation's whole wait time: wait again, as the other libraries do
			}
		}
	}

	@Override
	public void close() {
		// the application belongs to the BenchEnvironment
	}

}
