package dev.locksmith.redis;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.EngineSizes;
import dev.locksmith.testing.RedisServer;

/**
 * One sample of what a soak watches for growth: the JVM's heap and live threads, the lock store's keys
 * and clients, and what the engines keep in memory.
 *
 * @param at time since the soak started
 * @param heapBytes heap in use (after a full GC for a settled sample)
 * @param threads live threads of the JVM, less Reactor's elastic workers, which Reactor caps at ten per
 * core and keeps idle for 60 s
 * @param lockKeys keys under the lock prefix ({@code SCAN lock:*})
 * @param keysWithoutTtl those of them without a TTL
 * @param queueKeys wait-queue and deadline keys among them
 * @param clients clients connected to the lock store
 * @param usedMemory the lock store's {@code used_memory} ({@code INFO memory})
 * @param keyBytes what the keys under the lock prefix take ({@code MEMORY USAGE}, added up)
 * @param engines the engines' registries and renewals, added up
 */
record SoakSample(Duration at, long heapBytes, int threads, int lockKeys, int keysWithoutTtl, int queueKeys,
		int clients, long usedMemory, long keyBytes, EngineSizes engines) {

	private static final Pattern CLIENTS = Pattern.compile("connected_clients:(\\d+)");

	private static final Pattern USED_MEMORY = Pattern.compile("used_memory:(\\d+)");

	/** Samples now; {@code settled} runs a full GC first, so the heap counts live objects only. */
	static SoakSample take(Duration at, boolean settled, RedisServer store, List<DefaultLockService> engines) {
		if (settled) {
			System.gc();
			System.gc();
		}
		List<String> keys = List.of(store.command("EVAL", """
				local keys, cursor = {}, '0'
				repeat
				  local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
				  cursor = page[1]
				  for _, key in ipairs(page[2]) do keys[#keys + 1] = key .. ' ' .. (redis.call('MEMORY', 'USAGE', key) or 0) .. ' ' .. redis.call('PTTL', key) end
				until cursor == '0'
				return keys""", "0", "lock:*").split("\n"))
			.stream()
			.filter((line) -> !line.isBlank())
			.toList();
		Matcher clients = CLIENTS.matcher(store.command("INFO", "clients"));
		Matcher usedMemory = USED_MEMORY.matcher(store.command("INFO", "memory"));
		EngineSizes sizes = engines.stream().map(EngineSizes::of).reduce(EngineSizes::plus).orElseThrow();
		return new SoakSample(at, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
				liveThreadsBesideReactorsElasticWorkers(), keys.size(),
				(int) keys.stream().filter((line) -> line.endsWith(" -1")).count(),
				(int) keys.stream().filter((line) -> line.contains("queue:") || line.contains("deadlines:")).count(),
				clients.find() ? Integer.parseInt(clients.group(1)) : -1,
				usedMemory.find() ? Long.parseLong(usedMemory.group(1)) : -1,
				keys.stream().mapToLong((line) -> Long.parseLong(line.split(" ")[1])).sum(), sizes);
	}

	private static int liveThreadsBesideReactorsElasticWorkers() {
		return (int) Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && !thread.getName().startsWith("boundedElastic-"))
			.count();
	}

	/** The lock store's {@code used_memory} less what its keys under the lock prefix take. */
	long usedMemoryBesideKeys() {
		return this.usedMemory - this.keyBytes;
	}

	/** A row of the soak's table. */
	String row() {
		return "| " + this.at.toSeconds() + " s | " + this.heapBytes / (1024 * 1024) + " MiB | " + this.threads + " | "
				+ this.lockKeys + " | " + this.keysWithoutTtl + " | " + this.queueKeys + " | " + this.clients + " | "
				+ this.usedMemory / 1024 + " KiB | " + usedMemoryBesideKeys() / 1024 + " KiB | "
				+ this.engines.registry() + " | " + this.engines.renewals() + " | " + this.engines.waiters() + " |";
	}

	static String header() {
		return "| time | heap in use | live threads | keys under lock: | of them without TTL | queue and deadline keys"
				+ " | clients of the store | Redis used_memory | used_memory less the keys' MEMORY USAGE"
				+ " | held-lock registry | renewals | wait registry |\n"
				+ "|---|---|---|---|---|---|---|---|---|---|---|---|";
	}

}
