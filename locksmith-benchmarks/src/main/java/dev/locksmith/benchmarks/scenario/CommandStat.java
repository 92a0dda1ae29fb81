package dev.locksmith.benchmarks.scenario;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code INFO commandstats} says of one command: how often Redis ran it and the microseconds
 * it spent in it. A script call's time includes the commands the script runs, which Redis also
 * counts under their own names.
 *
 * @param calls times the command ran
 * @param micros microseconds spent in it, all calls together
 */
public record CommandStat(long calls, long micros) {

	private static final Pattern LINE = Pattern.compile("cmdstat_([^:]+):calls=(\\d+),usec=(\\d+)");

	/** Reads the reply of {@code INFO commandstats}, by lower-case command name. */
	public static Map<String, CommandStat> parse(String info) {
		Map<String, CommandStat> stats = new LinkedHashMap<>();
		Matcher matcher = LINE.matcher(info);
		while (matcher.find()) {
			stats.put(matcher.group(1), new CommandStat(Long.parseLong(matcher.group(2)),
					Long.parseLong(matcher.group(3))));
		}
		return stats;
	}

}
