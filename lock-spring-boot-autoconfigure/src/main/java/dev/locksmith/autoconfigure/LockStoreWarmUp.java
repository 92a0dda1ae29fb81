package dev.locksmith.autoconfigure;

import org.springframework.context.SmartLifecycle;

/**
 * Warms the lock store up (scripts loaded, eviction policy checked) when the application context starts,
 * before the web server does: the store's warm-up thread starts here, never in a {@code @Bean} method.
 */
final class LockStoreWarmUp implements SmartLifecycle {

	private final Runnable warmUp;

	private volatile boolean running;

	LockStoreWarmUp(Runnable warmUp) {
		this.warmUp = warmUp;
	}

	@Override
	public void start() {
		this.running = true;
		this.warmUp.run();
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Started before the web server (whose phases are {@code DEFAULT_PHASE - 2048} and up). */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4096;
	}

}
