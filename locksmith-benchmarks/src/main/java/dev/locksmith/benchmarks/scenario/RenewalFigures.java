package dev.locksmith.benchmarks.scenario;

/**
 * Load on Redis while many locks are held and renewed.
 *
 * @param locks locks held at once
 * @param commandsPerSecond commands Redis executed per second, as {@code INFO commandstats} counts
 * them: commands run inside scripts count too
 * @param scriptCallsPerSecond calls of scripts ({@code EVAL}, {@code EVALSHA}, {@code FCALL} and
 * their read-only forms) per second
 */
public record RenewalFigures(int locks, double commandsPerSecond, double scriptCallsPerSecond) {

}
