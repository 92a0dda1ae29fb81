package dev.locksmith.benchmarks.scenario;

/**
 * Load on Redis while many locks are held and renewed.
 *
 * @param commandsPerSecond commands Redis executed per second, as {@code INFO commandstats} counts
 * them: commands run inside scripts count too
 * @param scriptCallsPerSecond calls of scripts ({@code EVAL}, {@code EVALSHA}, {@code FCALL} and
 * their read-only forms) per second
 * @param redisCpuPercent the server process's CPU time ({@code INFO cpu}, system and user) over the
 * hold, in percent of one core
 */
public record RenewalFigures(double commandsPerSecond, double scriptCallsPerSecond, double redisCpuPercent) {

	@Override
	public String toString() {
		return "%,.0f commands/s, %,.0f scripts/s, Redis CPU %.1f%%".formatted(this.commandsPerSecond,
				this.scriptCallsPerSecond, this.redisCpuPercent);
	}

}
