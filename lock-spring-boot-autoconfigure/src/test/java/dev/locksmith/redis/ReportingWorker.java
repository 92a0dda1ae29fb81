package dev.locksmith.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker JVM started from a {@link WorkerJvm#command command}, spoken to by lines: the test sends lines
 * to its standard input and reads the report lines it prints, each line that starts with {@code WORKER}.
 */
final class ReportingWorker {

	private final Process process;

	private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

	private final List<String> seen = new ArrayList<>();

	private ReportingWorker(Process process) {
		this.process = process;
		Thread reader = new Thread(() -> {
			try (BufferedReader output = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				output.lines().filter((line) -> line.startsWith("WORKER ")).map((line) -> line.substring(7))
					.forEach(this.lines::add);
			}
			catch (java.io.IOException ex) {
				// the worker ended
			}
		});
		reader.setDaemon(true);
		reader.start();
	}

	/** Starts the JVM that {@code command} runs, its standard error discarded. */
	static ReportingWorker start(List<String> command) throws java.io.IOException {
		return new ReportingWorker(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start());
	}

	/** Ends the JVM at once, as {@code kill -9} does, and waits until it is gone. */
	void kill() {
		try {
			this.process.destroyForcibly().waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Waits for the next report line, which must start with {@code prefix}. */
	String expect(String prefix) throws InterruptedException {
		String line = this.lines.poll(60, TimeUnit.SECONDS);
		assertThat(line).as("worker report starting with %s (seen before: %s)", prefix, this.seen).startsWith(prefix);
		this.seen.add(line);
		return line;
	}

	void waitForOutput(Duration atMost) throws InterruptedException {
		String line = this.lines.poll(atMost.toMillis(), TimeUnit.MILLISECONDS);
		if (line != null) {
			this.seen.add(line);
		}
	}

	boolean hasSaid(String prefix) {
		return this.seen.stream().anyMatch((line) -> line.startsWith(prefix));
	}

	void send(String line) throws java.io.IOException {
		OutputStream input = this.process.getOutputStream();
		input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
		input.flush();
	}

	void signal(String signal) throws Exception {
		assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).start().waitFor())
			.isZero();
	}

}
