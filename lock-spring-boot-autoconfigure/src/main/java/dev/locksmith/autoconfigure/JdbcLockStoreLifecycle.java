package dev.locksmith.autoconfigure;

import org.springframework.context.SmartLifecycle;

import dev.locksmith.jdbc.JdbcLockStore;

/** Starts the PostgreSQL store's notifications before the lock service's users start; the store bean closes itself. */
final class JdbcLockStoreLifecycle implements SmartLifecycle {

	private final JdbcLockStore store;

	private volatile boolean running;

	JdbcLockStoreLifecycle(JdbcLockStore store) {
		this.store = store;
	}

	@Override
	public void start() {
		this.store.start();
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** The phase of the Redis store: before the default phase, where schedulers and listeners start. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4096;
	}

}
