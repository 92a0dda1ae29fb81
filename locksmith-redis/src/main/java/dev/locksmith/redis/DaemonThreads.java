package dev.locksmith.redis;

import java.util.concurrent.ThreadFactory;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/** Numbered daemon threads from Spring's factory: the store's background work never keeps a JVM alive. */
final class DaemonThreads {

	private DaemonThreads() {
	}

	/** Threads named {@code <prefix>-1}, {@code <prefix>-2}, ... */
	static ThreadFactory named(String prefix) {
		CustomizableThreadFactory threads = new CustomizableThreadFactory(prefix + "-");
		threads.setDaemon(true);
		return threads;
	}

}
