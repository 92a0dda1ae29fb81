package dev.locksmith.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A worker JVM for process tests: runs the {@code main} of a class on this JVM's class path, with its
 * output in a log file, and can be killed ({@code kill -9}), frozen ({@code SIGSTOP}) and resumed.
 */
public final class WorkerJvm implements AutoCloseable {

	private final Process process;

	private final Path log;

	private WorkerJvm(Process process, Path log) {
		this.process = process;
		this.log = log;
	}

	/** Starts {@code mainClass} with {@code arguments} in a new JVM, as {@link #command} says. */
	public static WorkerJvm start(Class<?> mainClass, String... arguments) {
		try {
			Path log = Files.createTempFile(mainClass.getSimpleName() + "-", ".log");
			Process process = new ProcessBuilder(command(mainClass, arguments)).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			return new WorkerJvm(process, log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start a JVM for " + mainClass.getName(), ex);
		}
	}

	/**
	 * The command that runs {@code mainClass} with {@code arguments} in a new JVM on this JVM's class path,
	 * with the client compiler only and the serial collector, which start quickest on a busy machine.
	 */
	public static List<String> command(Class<?> mainClass, String... arguments) {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
				mainClass.getName()));
		command.addAll(List.of(arguments));
		return command;
	}

	/** The worker's process id. */
	public long pid() {
		return this.process.pid();
	}

	/** Whether the worker's process has not exited. */
	public boolean isAlive() {
		return this.process.isAlive();
	}

	/** Kills the worker with SIGKILL and waits for it to exit. */
	public void kill() {
		this.process.destroyForcibly();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Worker " + pid() + " did not exit after SIGKILL");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** Asks the worker to shut down with SIGTERM, as a container runtime or a service manager does. */
	public void terminate() {
		this.process.destroy();
	}

	/** Waits at most {@code timeout} for the worker to exit; whether it did. */
	public boolean awaitExit(Duration timeout) throws InterruptedException {
		return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	/** The exit code of a worker that has exited. */
	public int exitValue() {
		return this.process.exitValue();
	}

	/** Freezes the worker with SIGSTOP: its threads, timers and connections stand still. */
	public void pause() {
		Signals.send(this.process, "STOP");
	}

	/** Resumes a frozen worker with SIGCONT. */
	public void resume() {
		Signals.send(this.process, "CONT");
	}

	/** What the worker has written to its standard output and error so far, for a failure message. */
	public String output() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			return "(its log " + this.log + " cannot be read: " + ex + ")";
		}
	}

	/** Kills the worker if it is still running, frozen or not. */
	@Override
	public void close() {
		resume();
		kill();
	}

}
