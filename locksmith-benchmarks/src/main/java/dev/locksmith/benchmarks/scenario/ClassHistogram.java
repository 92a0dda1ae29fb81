package dev.locksmith.benchmarks.scenario;

import java.lang.management.ManagementFactory;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The live objects of this JVM by class, as the JDK's {@code GC.class_histogram} diagnostic command counts
 * them after a full collection (what {@code jmap -histo:live} prints), read in process.
 *
 * @param classes instances and bytes of each class, by class name
 */
public record ClassHistogram(Map<String, Count> classes) {

	/** A row of the histogram: {@code 1:  91304  9243120  [B (java.base@17)}. */
	private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+).*$");

	/** The histogram of this JVM now. */
	public static ClassHistogram take() {
		String text;
		try {
			text = (String) ManagementFactory.getPlatformMBeanServer()
				.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
						new Object[] { new String[0] }, new String[] { String[].class.getName() });
		}
		catch (JMException ex) {
			throw new IllegalStateException("This JVM cannot take a class histogram", ex);
		}
		Map<String, Count> classes = new HashMap<>();
		for (String line : text.split("\n")) {
			Matcher row = ROW.matcher(line);
			if (row.matches()) {
				classes.merge(row.group(3), new Count(Long.parseLong(row.group(1)), Long.parseLong(row.group(2))),
						Count::plus);
			}
		}
		return new ClassHistogram(classes);
	}

	/**
	 * What each of {@code units} more things cost, class by class, from this histogram to {@code later},
	 * largest first.
	 */
	public List<PerUnit> perUnit(ClassHistogram later, int units) {
		return later.classes.entrySet().stream().map((entry) -> {
			Count before = this.classes.getOrDefault(entry.getKey(), new Count(0, 0));
			return new PerUnit(entry.getKey(), (entry.getValue().instances() - before.instances()) / (double) units,
					(entry.getValue().bytes() - before.bytes()) / (double) units);
		}).sorted(Comparator.comparingDouble(PerUnit::bytes).reversed()).toList();
	}

	/**
	 * Instances and bytes of one class.
	 *
	 * @param instances how many objects
	 * @param bytes their shallow size
	 */
	public record Count(long instances, long bytes) {

		Count plus(Count other) {
			return new Count(this.instances + other.instances, this.bytes + other.bytes);
		}

	}

	/**
	 * What one more thing costs of one class.
	 *
	 * @param className the class
	 * @param instances objects of it per thing
	 * @param bytes bytes of it per thing
	 */
	public record PerUnit(String className, double instances, double bytes) {

	}

}
