package dev.locksmith.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.HoldableLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.report.LinearFit;
import dev.locksmith.benchmarks.report.MachineInfo;
import dev.locksmith.benchmarks.report.Spread;
import dev.locksmith.benchmarks.scenario.Bytes;
import dev.locksmith.benchmarks.scenario.ClassHistogram;
import dev.locksmith.benchmarks.scenario.Footprint;
import dev.locksmith.benchmarks.scenario.FootprintFigures;
import dev.locksmith.benchmarks.scenario.RedisProbe;
import dev.locksmith.testing.RedisServer;

/**
 * Measures the heap and Redis bytes per held lock and per waiter (the full run's memory scenario) in
 * {@code bench.rounds} rounds that take the libraries in alternating order, and prints each figure's median
 * with its spread; then profiles Locksmith's held lock: the classes that make up its bytes, from two class
 * histograms of this JVM taken while the fewest and the most of {@code bench.heldLocks} are held.
 */
public final class HeldLocksMain {

	/** The command that runs this, from the repository root. */
	static final String COMMAND = "./mvnw -B -ntp -o -Pbenchmarks -pl locksmith-benchmarks -am verify -DskipTests"
			+ " -Dbench.main=HeldLocksMain -Dbench.libraries=TEXTBOOK,REDISSON,SHEDLOCK,LOCKSMITH -Dbench.rounds=3";

	private static final int PROFILE_ROWS = 15;

	private HeldLocksMain() {
	}

	public static void main(String[] args) throws Exception {
		BenchSettings settings = BenchSettings.fromSystemProperties();
		int rounds = Integer.getInteger("bench.rounds", 3);
		System.out.println("Memory per held lock and per waiter, " + rounds + " rounds: " + settings.describe());
		Map<Library, List<FootprintFigures>> figures = new EnumMap<>(Library.class);
		try (RedisServer redis = RedisServer.start(); RedisProbe probe = new RedisProbe(redis);
				BenchEnvironment environment = new BenchEnvironment(redis.port())) {
			Map<Library, BenchLock> locks = BenchmarkMain.open(environment, settings);
			try {
				Footprint footprint = new Footprint(settings, probe);
				List<Library> order = new ArrayList<>(locks.keySet());
				for (int round = 1; round <= rounds; round++) {
					for (Library library : order) {
						footprint.measure(library, locks.get(library)).ifPresent((measured) -> {
							figures.computeIfAbsent(library, (key) -> new ArrayList<>()).add(measured);
							System.out.printf("%-32s heap %6.0f B/lock  Redis %4.0f B/lock  heap %6.0f B/waiter  load %s%n",
									library.label(), perUnit(measured, true, Bytes::heap),
									perUnit(measured, true, Bytes::redis), perUnit(measured, false, Bytes::heap),
									MachineInfo.loadAverage());
						});
					}
					Collections.reverse(order);
				}
				printMedians(figures);
				if (locks.get(Library.LOCKSMITH) instanceof HoldableLock locksmith) {
					profile(locksmith, settings.heldLocks());
				}
			}
			finally {
				locks.values().forEach(BenchLock::close);
			}
		}
		System.exit(0);
	}

	private static void printMedians(Map<Library, List<FootprintFigures>> figures) {
		System.out.println("== Median of the rounds [min–max]");
		figures.forEach((library, rounds) -> System.out.printf("%-32s heap %s B per held lock, Redis %s B; heap %s B per waiter%n",
				library.label(), spread(rounds, true, Bytes::heap), spread(rounds, true, Bytes::redis),
				spread(rounds, false, Bytes::heap)));
	}

	private static String spread(List<FootprintFigures> rounds, boolean held, ToLongFunction<Bytes> bytes) {
		return Spread.of(rounds.stream().map((figures) -> perUnit(figures, held, bytes)).toList())
			.map((spread) -> spread.format("%.0f"))
			.orElse("n/a");
	}

	private static double perUnit(FootprintFigures figures, boolean held, ToLongFunction<Bytes> bytes) {
		return LinearFit.slope((held ? figures.held() : figures.waiters()).values((point) -> bytes.applyAsLong(point)))
			.orElse(Double.NaN);
	}

	/** Prints the classes that grow with each lock Locksmith holds, between the fewest and the most locks. */
	private static void profile(HoldableLock lock, List<Integer> counts) throws Exception {
		int fewest = counts.get(0);
		int most = counts.get(counts.size() - 1);
		ClassHistogram atFewest = whileHolding(lock, fewest);
		ClassHistogram atMost = whileHolding(lock, most);
		List<ClassHistogram.PerUnit> rows = atFewest.perUnit(atMost, most - fewest);
		System.out.printf("== Locksmith: live objects per held lock, from %,d to %,d held (the caller's key and handle included)%n",
				fewest, most);
		rows.stream().limit(PROFILE_ROWS).forEach((row) -> System.out.printf("%7.1f B  %5.2f objects  %s%n", row.bytes(),
				row.instances(), row.className()));
		System.out.printf("%7.1f B  in all%n", rows.stream().mapToDouble(ClassHistogram.PerUnit::bytes).sum());
	}

	private static ClassHistogram whileHolding(HoldableLock lock, int count) throws Exception {
		List<HoldableLock.Release> held = new ArrayList<>(count);
		try {
			for (int i = 0; i < count; i++) {
				held.add(lock.hold("bench:held:" + i));
			}
			return ClassHistogram.take();
		}
		finally {
			for (HoldableLock.Release release : held) {
				release.close();
			}
		}
	}

}
