package dev.locksmith.benchmarks.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a JFR recording's samples fall, by the frame of Locksmith's own nearest the top of each stack:
 * what a call into Locksmith costs, whether Locksmith or a library under it spends it. A sample with no
 * such frame counts for its top frame, marked as outside Locksmith. Execution samples count one each,
 * allocation samples by the bytes they stand for.
 */
public final class TopFrames {

	private static final String LOCKSMITH = "dev.locksmith.";

	private static final String BENCHMARKS = "dev.locksmith.benchmarks.";

	private final Map<String, Long> weights;

	private final long total;

	private TopFrames(Map<String, Long> weights) {
		this.weights = weights;
		this.total = weights.values().stream().mapToLong(Long::longValue).sum();
	}

	/** The execution samples of {@code recording}, one each. */
	public static TopFrames executionSamples(Path recording) throws IOException {
		return read(recording, "jdk.ExecutionSample", (event) -> 1);
	}

	/** The allocation samples of {@code recording}, by the bytes each stands for. */
	public static TopFrames allocationSamples(Path recording) throws IOException {
		return read(recording, "jdk.ObjectAllocationSample", (event) -> event.getLong("weight"));
	}

	private static TopFrames read(Path recording, String eventType, ToLongFunction<RecordedEvent> weight)
			throws IOException {
		Map<String, Long> weights = new HashMap<>();
		for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
			if (event.getEventType().getName().equals(eventType) && event.getStackTrace() != null) {
				weights.merge(frameOf(event.getStackTrace().getFrames()), weight.applyAsLong(event), Long::sum);
			}
		}
		return new TopFrames(weights);
	}

	private static String frameOf(List<RecordedFrame> frames) {
		for (RecordedFrame frame : frames) {
			String name = nameOf(frame);
			if (name.startsWith(LOCKSMITH) && !name.startsWith(BENCHMARKS) && !name.contains("$$Lambda")) {
				return name;
			}
		}
		return frames.isEmpty() ? "(no stack)" : "(outside Locksmith) " + nameOf(frames.get(0));
	}

	private static String nameOf(RecordedFrame frame) {
		return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
	}

	/** The {@code limit} heaviest frames, each with its share of the whole, as lines of a Markdown table. */
	public List<String> table(int limit) {
		return this.weights.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
			.limit(limit)
			.map((entry) -> String.format("| `%s` | %.1f |", entry.getKey(), 100.0 * entry.getValue() / this.total))
			.toList();
	}

	/** The sum of the weights: samples, or bytes. */
	public long total() {
		return this.total;
	}

}
