package dev.locksmith.benchmarks.lock;

import java.time.Duration;
import java.util.Optional;

import org.springframework.context.ApplicationContext;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

/** Locksmith's programmatic {@link LockService}, as Spring Boot auto-configures it. */
final class LocksmithLock implements RenewableLock {

	private static final LockOptions OPTIONS = LockOptions.ofTtl(Duration.ofSeconds(30))
		.withWaitTime(Duration.ofSeconds(10));

	private final LockService lockService;

	LocksmithLock(ApplicationContext context) {
		this.lockService = context.getBean(LockService.class);
	}

	@Override
	public void runLocked(String key, Runnable section) throws InterruptedException {
		try (LockHandle handle = acquire(key, OPTIONS)) {
			section.run();
		}
	}

	@Override
	public Release hold(String key) throws InterruptedException {
		LockHandle handle = acquire(key, LockOptions.ofTtl(RENEWED_LEASE));
		return handle::close;
	}

	private LockHandle acquire(String key, LockOptions options) throws InterruptedException {
		Optional<LockHandle> handle = this.lockService.tryAcquire(key, options);
		while (handle.isEmpty()) {
			handle = this.lockService.tryAcquire(key, options);
		}
		return handle.get();
	}

	@Override
	public void close() {
		// the application belongs to the BenchEnvironment
	}

}
