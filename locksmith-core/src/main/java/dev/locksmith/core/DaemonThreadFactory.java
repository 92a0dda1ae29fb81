package dev.locksmith.core;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Creates numbered daemon threads, so Locksmith's background work never keeps a JVM alive. */
final class DaemonThreadFactory implements ThreadFactory {

	private final String prefix;

	private final AtomicInteger count = new AtomicInteger();

	DaemonThreadFactory(String prefix) {
		this.prefix = prefix;
	}

	@Override
	public Thread newThread(Runnable task) {
		Thread thread = new Thread(task, this.prefix + "-" + this.count.incrementAndGet());
		thread.setDaemon(true);
		return thread;
	}

}
