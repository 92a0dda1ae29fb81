package dev.locksmith.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.locksmith.testing.RedisServer;

/**
 * The machine and software a run measured on.
 *
 * @param cpu processor model, from {@code /proc/cpuinfo}
 * @param cores processors available to the JVM
 * @param jdk Java runtime name and version
 * @param os operating system and architecture
 * @param redis Redis server version
 * @param date when the run started
 * @param loadAtStart the load average over 1, 5 and 15 minutes when the run started
 */
public record MachineInfo(String cpu, int cores, String jdk, String os, String redis, String date,
		String loadAtStart) {

	private static final Pattern CPU_MODEL = Pattern.compile("(?m)^model name\\s*:\\s*(.+)$");

	private static final Pattern REDIS_VERSION = Pattern.compile("redis_version:(\\S+)");

	/** Describes this machine and the given server. */
	public static MachineInfo detect(RedisServer redis) {
		Matcher version = REDIS_VERSION.matcher(redis.command("INFO", "server"));
		return new MachineInfo(cpuModel(), Runtime.getRuntime().availableProcessors(),
				System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
				System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
						+ System.getProperty("os.arch"),
				version.find() ? version.group(1) : "unknown",
				ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")), loadAverage());
	}

	/** The load average over 1, 5 and 15 minutes now, from {@code /proc/loadavg}. */
	public static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return fields[0] + ", " + fields[1] + ", " + fields[2];
		}
		catch (IOException ex) {
			return "unknown (no /proc/loadavg)";
		}
	}

	private static String cpuModel() {
		try {
			Matcher model = CPU_MODEL.matcher(Files.readString(Path.of("/proc/cpuinfo")));
			return model.find() ? model.group(1).trim() : "unknown";
		}
		catch (IOException ex) {
			return "unknown (no /proc/cpuinfo)";
		}
	}

}
