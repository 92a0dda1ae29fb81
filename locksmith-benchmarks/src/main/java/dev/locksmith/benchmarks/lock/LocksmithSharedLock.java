package dev.locksmith.benchmarks.lock;

import java.time.Duration;

import org.springframework.context.ApplicationContext;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

/** Locksmith's read/write locks and permits through its {@link LockService}, as Spring Boot auto-configures it. */
final class LocksmithSharedLock implements SharedLock {

	private static final LockOptions OPTIONS = LockOptions.ofTtl(LEASE).withWaitTime(Duration.ofMinutes(1));

	private final LockService lockService;

	LocksmithSharedLock(ApplicationContext context) {
		this.lockService = context.getBean(LockService.class);
	}

	@Override
	public long read(String key, Runnable section) throws InterruptedException {
		return run(key, OPTIONS.withMode(LockMode.READ), section);
	}

	@Override
	public long write(String key, Runnable section) throws InterruptedException {
		return run(key, OPTIONS, section);
	}

	@Override
	public long permit(String key, int permits, Runnable section) throws InterruptedException {
		return run(key, OPTIONS.withPermits(permits), section);
	}

	private long run(String key, LockOptions options, Runnable section) throws InterruptedException {
		long start = System.nanoTime();
		try (LockHandle handle = this.lockService.acquire(key, options)) {
			long waited = System.nanoTime() - start;
			section.run();
			return waited;
		}
	}

	@Override
	public void close() {
		// the application belongs to the BenchEnvironment
	}

}
