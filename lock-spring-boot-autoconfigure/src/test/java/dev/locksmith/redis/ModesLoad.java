package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A mixed load of one lock engine and its checker: one writer and two readers of {@value #READ_KEY},
 * and two holders of the {@value #PERMITS} permits of {@value #PERMITS_KEY}, each a thread taking its
 * lock over and over and recording each critical section on a checker Redis that counts overlaps
 * ({@code enter.lua}). Run by each {@link ModesWorker} JVM and by each engine of
 * {@link SharedLockTests}; the two keys lie on different masters of a three-master cluster.
 */
final class ModesLoad {

	/** The key that the writer and the readers take. */
	static final String READ_KEY = "doc";

	/** The key whose permits the permit holders take. */
	static final String PERMITS_KEY = "render";

	/** The permits of {@link #PERMITS_KEY}. */
	static final int PERMITS = 2;

	/** How many critical sections each key sees at least: the load goes on past its time until then. */
	static final int LEAST_SECTIONS = 50;

	private static final RedisScript<Long> ENTER = RedisScript
		.of(new ClassPathResource("dev/locksmith/modes/enter.lua"), Long.class);

	private static final LockOptions WRITE = LockOptions.ofTtl(Duration.ofSeconds(10)).withWaitTime(Duration.ofSeconds(30));

	private static final LockOptions READ = WRITE.withMode(LockMode.READ);

	private static final LockOptions PERMIT = WRITE.withPermits(PERMITS);

	private ModesLoad() {
	}

	/** Takes each lock of the load once with {@code locks}, so that no section measures a first connection. */
	static void warmUp(LockService locks, StringRedisTemplate checker) {
		for (LockOptions options : List.of(WRITE, READ)) {
			locks.runLocked(READ_KEY, options, () -> checker.hasKey("warm-up"));
		}
		locks.runLocked(PERMITS_KEY, PERMIT, () -> checker.hasKey("warm-up"));
	}

	/**
	 * Starts the load's five threads on {@code locks}, each until {@code until} ({@link System#nanoTime()})
	 * and its key has seen {@link #LEAST_SECTIONS}, so that a loaded machine checks as much as an idle one.
	 */
	static CompletableFuture<Void> run(LockService locks, StringRedisTemplate checker, long until, Executor threads) {
		List<CompletableFuture<Void>> holders = new ArrayList<>();
		holders.add(holder(locks, checker, READ_KEY, WRITE, "write", until, threads));
		for (int i = 0; i < 2; i++) {
			holders.add(holder(locks, checker, READ_KEY, READ, "0", until, threads));
			holders.add(holder(locks, checker, PERMITS_KEY, PERMIT, Integer.toString(PERMITS), until, threads));
		}
		return CompletableFuture.allOf(holders.toArray(CompletableFuture[]::new));
	}

	/**
	 * Asserts what the checker counted: {@link #LEAST_SECTIONS} sections per key at least and no overlap,
	 * readers sharing their key and the permit holders filling their permits.
	 */
	static void assertModesKept(RedisServer checker) {
		assertThat(stats(checker, READ_KEY)).as("readers and writers of %s", READ_KEY)
			.containsEntry("overlaps", 0L)
			.hasEntrySatisfying("sections", (sections) -> assertThat(sections).isGreaterThanOrEqualTo((long) LEAST_SECTIONS))
			.hasEntrySatisfying("most-shares", (most) -> assertThat(most).as("readers shared it").isGreaterThan(1));
		assertThat(stats(checker, PERMITS_KEY)).as("holders of %s's %d permits", PERMITS_KEY, PERMITS)
			.containsEntry("overlaps", 0L)
			.hasEntrySatisfying("sections", (sections) -> assertThat(sections).isGreaterThanOrEqualTo((long) LEAST_SECTIONS))
			.containsEntry("most-shares", (long) PERMITS);
	}

	private static long sections(StringRedisTemplate checker, String key) {
		Object sections = checker.opsForHash().get("stats:" + key, "sections");
		return (sections != null) ? Long.parseLong(sections.toString()) : 0;
	}

	/** The counters kept for {@code key} on the checker Redis, overlaps 0 unless counted. */
	private static Map<String, Long> stats(RedisServer checker, String key) {
		Map<String, Long> stats = new HashMap<>(Map.of("overlaps", 0L));
		String[] flat = checker.command("HGETALL", "stats:" + key).split("\n");
		for (int i = 0; i + 1 < flat.length; i += 2) {
			stats.put(flat[i].trim(), Long.parseLong(flat[i + 1].trim()));
		}
		return stats;
	}

	/** A thread that takes {@code key} with {@code options} as {@link #run} says, each time inside for 1 to 5 ms. */
	private static CompletableFuture<Void> holder(LockService locks, StringRedisTemplate checker, String key,
			LockOptions options, String kind, long until, Executor threads) {
		String inside = kind.equals("write") ? "writers" : "shares";
		return CompletableFuture.runAsync(() -> {
			while (System.nanoTime() < until || sections(checker, key) < LEAST_SECTIONS) {
				locks.runLocked(key, options, () -> {
					checker.execute(ENTER, List.of("writers:" + key, "shares:" + key, "stats:" + key), kind);
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ThreadLocalRandom.current().nextInt(1, 6)));
					checker.opsForValue().decrement(inside + ":" + key);
				});
			}
		}, threads);
	}

}
