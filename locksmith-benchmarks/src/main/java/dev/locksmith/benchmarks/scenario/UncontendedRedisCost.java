package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.testing.CommandMonitor;
import dev.locksmith.testing.RedisServer;

/**
 * One thread acquires and releases one free key over and over while Redis counts what it costs:
 * {@code INFO commandstats} and the server's CPU time, per pair. A few pairs run under
 * {@code MONITOR} first, to tell the commands a client sends from those its scripts run.
 */
public final class UncontendedRedisCost implements Scenario<RedisCostFigures> {

	private static final int MONITORED_PAIRS = 50;

	private final BenchSettings settings;

	private final RedisServer redis;

	private final RedisProbe probe;

	public UncontendedRedisCost(BenchSettings settings, RedisServer redis, RedisProbe probe) {
		this.settings = settings;
		this.redis = redis;
		this.probe = probe;
	}

	@Override
	public String title() {
		return "Redis CPU per uncontended acquire + release";
	}

	@Override
	public Optional<RedisCostFigures> measure(Library library, BenchLock lock) throws Exception {
		Duration expected = this.settings.warmup().plus(this.settings.measure());
		return Optional.of(Workers.runOne(() -> cost(lock), expected));
	}

	private RedisCostFigures cost(BenchLock lock) throws Exception {
		repeat(lock, this.settings.warmup());
		Set<String> sent;
		try (CommandMonitor monitor = this.redis.monitor()) {
			for (int i = 0; i < MONITORED_PAIRS; i++) {
				pair(lock);
			}
			sent = monitor.clientCommands()
				.stream()
				.map((command) -> command.toLowerCase(Locale.ROOT))
				.collect(Collectors.toSet());
		}
		this.probe.resetCommandStats();
		double cpuBefore = this.probe.cpuSeconds();
		long pairs = repeat(lock, this.settings.measure());
		double cpuSeconds = this.probe.cpuSeconds() - cpuBefore;
		Map<String, CommandStat> stats = this.probe.commandStats();
		return RedisCostFigures.of(stats, sent, pairs, cpuSeconds);
	}

	private static long repeat(BenchLock lock, Duration duration) throws Exception {
		long end = System.nanoTime() + duration.toNanos();
		long pairs = 0;
		while (System.nanoTime() < end) {
			pair(lock);
			pairs++;
		}
		return pairs;
	}

	private static void pair(BenchLock lock) throws Exception {
		lock.runLocked(UncontendedLatency.KEY, () -> {
		});
	}

}
