package dev.locksmith.benchmarks.scenario;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What Redis spent on one uncontended acquire and release pair.
 *
 * @param pairs pairs measured
 * @param commands per command that ran: how often per pair, its time per call, and whether the
 * client sent it (else a script ran it)
 * @param microsPerPair the time {@code INFO commandstats} counts for one pair: the commands the
 * client sent, a script's time including the commands it ran
 * @param cpuMicrosPerPair the server process's CPU time ({@code INFO cpu}, system and user) per
 * pair, which also counts reading, parsing and answering the commands
 */
public record RedisCostFigures(long pairs, Map<String, CommandCost> commands, double microsPerPair,
		double cpuMicrosPerPair) {

	/**
	 * Turns the statistics of {@code pairs} pairs into figures; {@code sent} names the commands that
	 * clients sent, in lower case.
	 */
	static RedisCostFigures of(Map<String, CommandStat> stats, Set<String> sent, long pairs, double cpuSeconds) {
		Map<String, CommandCost> commands = new TreeMap<>();
		double micros = 0;
		for (Map.Entry<String, CommandStat> entry : stats.entrySet()) {
			String name = entry.getKey();
			CommandStat stat = entry.getValue();
			boolean fromClient = sent.contains(name);
			commands.put(name, new CommandCost((double) stat.calls() / pairs, (double) stat.micros() / stat.calls(),
					fromClient));
			if (fromClient) {
				micros += stat.micros();
			}
		}
		return new RedisCostFigures(pairs, commands, micros / pairs, cpuSeconds * 1e6 / pairs);
	}

	/** Commands the client sent per pair: its round trips. */
	public double roundTripsPerPair() {
		return this.commands.values().stream().filter(CommandCost::fromClient).mapToDouble(CommandCost::callsPerPair).sum();
	}

	@Override
	public String toString() {
		return "%.1f µs commandstats, %.1f µs CPU per pair, %.2f round trips, %s".formatted(this.microsPerPair,
				this.cpuMicrosPerPair, roundTripsPerPair(), this.commands);
	}

	/**
	 * One command's share of a pair.
	 *
	 * @param callsPerPair calls per pair
	 * @param microsPerCall microseconds per call
	 * @param fromClient whether the client sent it, rather than a script
	 */
	public record CommandCost(double callsPerPair, double microsPerCall, boolean fromClient) {

		@Override
		public String toString() {
			return "%.2f x %.2f µs%s".formatted(this.callsPerPair, this.microsPerCall, this.fromClient ? " (client)" : "");
		}

	}

}
