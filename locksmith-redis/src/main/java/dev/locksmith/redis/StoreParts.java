package dev.locksmith.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * The parts a store made, each with what it does when the store starts, stops and closes: started in
 * the order they were made, at once when made while the store runs; stopped and closed the other way.
 */
final class StoreParts {

	private final List<Part> made = new ArrayList<>();

	private volatile boolean running;

	/** Adds {@code part}, starting it when the store runs, and returns {@code made}. */
	synchronized <T> T add(T made, Part part) {
		this.made.add(0, part);
		if (this.running) {
			part.start().run();
		}
		return made;
	}

	synchronized void start() {
		for (int i = this.made.size() - 1; i >= 0; i--) {
			this.made.get(i).start().run();
		}
		this.running = true;
	}

	synchronized void stop() {
		this.running = false;
		this.made.forEach((part) -> part.stop().run());
	}

	boolean isRunning() {
		return this.running;
	}

	/** Stops every part, then closes each, the latest first, even when closing an earlier one failed. */
	synchronized void close() {
		stop();
		RuntimeException failure = null;
		for (Part part : this.made) {
			try {
				part.close().run();
			}
			catch (RuntimeException ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	/** What one part does when the store starts, stops and closes. */
	record Part(Runnable start, Runnable stop, Runnable close) {

		static final Runnable NOTHING = () -> {
		};

		/** A part that only needs closing. */
		static Part closed(Runnable close) {
			return new Part(NOTHING, NOTHING, close);
		}

	}

}
