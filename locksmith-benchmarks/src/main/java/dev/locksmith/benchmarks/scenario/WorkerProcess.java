package dev.locksmith.benchmarks.scenario;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.locksmith.benchmarks.lock.BenchEnvironment;

/**
 * One worker JVM run by {@link WorkerRounds}, started from this JVM's classpath: sends it commands and reads
 * its reports, each within a timeout.
 */
final class WorkerProcess implements AutoCloseable {

	private static final String END_OF_OUTPUT = "bench:end-of-output";

	private final String name;

	private final Process process;

	private final Writer commands;

	private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

	private WorkerProcess(String name, Process process) {
		this.name = name;
		this.process = process;
		this.commands = process.outputWriter(StandardCharsets.UTF_8);
		Thread reader = new Thread(this::readOutput, name + "-output");
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Starts worker number {@code index}, running {@code mainClass} with {@code arguments} and this JVM's
	 * {@code locksmith.*} system properties (which configure its Locksmith application) and PostgreSQL URL
	 * ({@link BenchEnvironment#JDBC_URL_PROPERTY}); its standard error goes to this JVM's.
	 */
	static WorkerProcess start(int index, Class<?> mainClass, List<String> arguments) {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
		System.getProperties().stringPropertyNames().stream()
			.filter((name) -> name.startsWith("locksmith.") || name.equals(BenchEnvironment.JDBC_URL_PROPERTY))
			.sorted()
			.forEach((name) -> command.add("-D" + name + "=" + System.getProperty(name)));
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
		command.addAll(arguments);
		try {
			Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
			return new WorkerProcess("worker-" + index, process);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start a worker JVM", ex);
		}
	}

	/** Waits until the worker prints {@code expected}. */
	void awaitLine(String expected, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!nextLine(deadline).equals(expected)) {
			// skip what the libraries print
		}
	}

	/** Sends one command line. */
	void send(String command) throws IOException {
		this.commands.write(command + "\n");
		this.commands.flush();
	}

	/** Asks the worker, while a round warms up, how long its JIT compilers have taken so far, in milliseconds. */
	long compilationMillis(Duration timeout) throws IOException, InterruptedException {
		send(WorkerRounds.JIT);
		long deadline = System.nanoTime() + timeout.toNanos();
		String line;
		while (!(line = nextLine(deadline)).startsWith(WorkerRounds.JIT_ANSWER)) {
			// skip what the libraries print
		}
		return Long.parseLong(line.substring(WorkerRounds.JIT_ANSWER.length()).trim());
	}

	/** Reads the worker's thread tallies, up to its final line. */
	List<ThreadTally> tallies(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		List<ThreadTally> tallies = new ArrayList<>();
		String line;
		while (!(line = nextLine(deadline)).equals(WorkerRounds.DONE)) {
			if (ThreadTally.isTally(line)) {
				tallies.add(ThreadTally.parse(line));
			}
		}
		return tallies;
	}

	private String nextLine(long deadline) throws InterruptedException {
		String line = this.lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		if (line == null) {
			throw new IllegalStateException(this.name + " did not answer in time");
		}
		if (line.equals(END_OF_OUTPUT)) {
			throw new IllegalStateException(this.name + " exited early");
		}
		if (line.startsWith(WorkerRounds.FAILED)) {
			throw new IllegalStateException(this.name + ": " + line.substring(WorkerRounds.FAILED.length()));
		}
		return line;
	}

	private void readOutput() {
		try (BufferedReader output = this.process.inputReader(StandardCharsets.UTF_8)) {
			String line;
			while ((line = output.readLine()) != null) {
				this.lines.add(line);
			}
		}
		catch (IOException ex) {
			// the process is gone; the end marker below says so
		}
		this.lines.add(END_OF_OUTPUT);
	}

	@Override
	public void close() throws IOException, InterruptedException {
		this.commands.close();
		if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor();
		}
	}

}
