package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.HoldableLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.RenewableLock;

/**
 * Holds many locks while the library's watchdog renews them, at each size of the settings, and
 * counts what Redis executes meanwhile and the CPU it spends. Libraries without a watchdog do not
 * take part.
 */
public final class RenewalCost implements Scenario<Curve<RenewalFigures>> {

	private static final Set<String> SCRIPT_COMMANDS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall",
			"fcall_ro");

	private static final Duration ACQUIRE_ALLOWANCE = Duration.ofMinutes(5);

	private final BenchSettings settings;

	private final RedisProbe probe;

	public RenewalCost(BenchSettings settings, RedisProbe probe) {
		this.settings = settings;
		this.probe = probe;
	}

	@Override
	public String title() {
		return "Renewal cost against held locks (lease %ds, watchdog every third of it)"
			.formatted(RenewableLock.RENEWED_LEASE.toSeconds());
	}

	@Override
	public Optional<Curve<RenewalFigures>> measure(Library library, BenchLock lock) throws Exception {
		if (!(lock instanceof RenewableLock renewable)) {
			return Optional.empty();
		}
		Duration expected = this.settings.hold().plus(ACQUIRE_ALLOWANCE);
		SortedMap<Integer, RenewalFigures> points = new TreeMap<>();
		for (int count : this.settings.renewedLocks()) {
			this.probe.flush();
			points.put(count, Workers.runOne(() -> holdAll(renewable, count), expected));
		}
		return Optional.of(new Curve<>(points));
	}

	/** Acquires, holds and releases every lock on one thread, as thread-bound locks require. */
	private RenewalFigures holdAll(RenewableLock lock, int count) throws Exception {
		List<HoldableLock.Release> held = new ArrayList<>(count);
		try {
			for (int i = 0; i < count; i++) {
				held.add(lock.hold("bench:held:" + i));
			}
			this.probe.resetCommandStats();
			double cpuBefore = this.probe.cpuSeconds();
			long start = System.nanoTime();
			Thread.sleep(this.settings.hold().toMillis());
			Map<String, CommandStat> stats = this.probe.commandStats();
			double cpuSeconds = this.probe.cpuSeconds() - cpuBefore;
			double seconds = (System.nanoTime() - start) / 1e9;
			long commands = stats.values().stream().mapToLong(CommandStat::calls).sum();
			long scripts = stats.entrySet()
				.stream()
				.filter((entry) -> SCRIPT_COMMANDS.contains(entry.getKey()))
				.mapToLong((entry) -> entry.getValue().calls())
				.sum();
			return new RenewalFigures(commands / seconds, scripts / seconds, 100 * cpuSeconds / seconds);
		}
		finally {
			held.forEach(HoldableLock.Release::close);
		}
	}

}
