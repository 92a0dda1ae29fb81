package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.RenewableLock;
import dev.locksmith.testing.RedisServer;

/**
 * Scenario d: holds many locks while the library's watchdog renews them, and counts the commands
 * Redis executes meanwhile. Libraries without a watchdog do not take part.
 */
public final class RenewalCost implements Scenario<RenewalFigures> {

	private static final Set<String> SCRIPT_COMMANDS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall",
			"fcall_ro");

	private static final Duration ACQUIRE_ALLOWANCE = Duration.ofMinutes(2);

	private final BenchSettings settings;

	private final RedisServer redis;

	public RenewalCost(BenchSettings settings, RedisServer redis) {
		this.settings = settings;
		this.redis = redis;
	}

	@Override
	public String title() {
		return "Renewing %,d held locks (lease %ds, watchdog every third of it)".formatted(this.settings.heldLocks(),
				RenewableLock.RENEWED_LEASE.toSeconds());
	}

	@Override
	public Optional<RenewalFigures> measure(Library library, BenchLock lock) throws Exception {
		if (!(lock instanceof RenewableLock renewable)) {
			return Optional.empty();
		}
		Duration expected = this.settings.hold().plus(ACQUIRE_ALLOWANCE);
		return Optional.of(Workers.runOne(() -> holdAll(renewable), expected));
	}

	/** Acquires, holds and releases every lock on one thread, as thread-bound locks require. */
	private RenewalFigures holdAll(RenewableLock lock) throws Exception {
		List<RenewableLock.Release> held = new ArrayList<>(this.settings.heldLocks());
		try {
			for (int i = 0; i < this.settings.heldLocks(); i++) {
				held.add(lock.holdRenewed("bench:held:" + i));
			}
			this.redis.resetStats();
			long start = System.nanoTime();
			Thread.sleep(this.settings.hold().toMillis());
			Map<String, Long> calls = this.redis.commandCalls();
			double seconds = (System.nanoTime() - start) / 1e9;
			long commands = calls.values().stream().mapToLong(Long::longValue).sum();
			long scripts = calls.entrySet()
				.stream()
				.filter((entry) -> SCRIPT_COMMANDS.contains(entry.getKey()))
				.mapToLong(Map.Entry::getValue)
				.sum();
			return new RenewalFigures(held.size(), commands / seconds, scripts / seconds);
		}
		finally {
			held.forEach(RenewableLock.Release::close);
		}
	}

}
