package dev.locksmith.testing;

import java.io.IOException;
import java.io.UncheckedIOException;

/** Sends POSIX signals ({@code STOP}, {@code CONT}, {@code KILL}) to processes with {@code kill}. */
final class Signals {

	private Signals() {
	}

	/** Sends {@code signal} to {@code process} when it is alive; does nothing to one that has exited. */
	static void send(Process process, String signal) {
		if (!process.isAlive()) {
			return;
		}
		try {
			int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
			if (exit != 0 && process.isAlive()) {
				throw new IllegalStateException("kill -" + signal + " failed with exit code " + exit);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
