package dev.locksmith.benchmarks.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import dev.locksmith.testing.RedisServer;

/** Reads what Redis itself says about a run: its command statistics, its CPU time and the memory of its keys. */
public final class RedisProbe implements AutoCloseable {

	private static final Pattern CPU = Pattern.compile("used_cpu_(?:sys|user):([\\d.]+)");

	private static final int SCAN_BATCH = 1000;

	/** What this probe and {@link dev.locksmith.testing.CommandMonitor} send. */
	private static final Set<String> PROBE_COMMANDS = Set.of("info", "echo", "monitor");

	private final RedisServer redis;

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	public RedisProbe(RedisServer redis) {
		this.redis = redis;
		this.client = RedisClient.create("redis://127.0.0.1:" + redis.port());
		this.connection = this.client.connect();
	}

	/** Sets the command statistics back to zero. */
	void resetCommandStats() {
		this.redis.resetStats();
	}

	/** The command statistics since the last reset, by lower-case command name, without the probe's own commands. */
	Map<String, CommandStat> commandStats() {
		Map<String, CommandStat> stats = CommandStat.parse(this.redis.command("INFO", "commandstats"));
		stats.keySet().removeIf((name) -> PROBE_COMMANDS.contains(name) || name.startsWith("config"));
		return stats;
	}

	/** The CPU time the server process has used since it started, system and user, in seconds. */
	double cpuSeconds() {
		Matcher matcher = CPU.matcher(this.redis.command("INFO", "cpu"));
		double seconds = 0;
		while (matcher.find()) {
			seconds += Double.parseDouble(matcher.group(1));
		}
		return seconds;
	}

	/** The sum of {@code MEMORY USAGE key SAMPLES 0} over every key of the database. */
	long keyBytes() {
		RedisAsyncCommands<String, String> redis = this.connection.async();
		List<RedisFuture<Long>> sizes = new ArrayList<>();
		ScanCursor cursor = ScanCursor.INITIAL;
		do {
			KeyScanCursor<String> page = this.connection.sync().scan(cursor, ScanArgs.Builder.limit(SCAN_BATCH));
			for (String key : page.getKeys()) {
				CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).add("USAGE")
					.addKey(key)
					.add("SAMPLES")
					.add(0);
				sizes.add(redis.dispatch(CommandType.MEMORY, new IntegerOutput<>(StringCodec.UTF8), args));
			}
			cursor = page;
		}
		while (!cursor.isFinished());
		if (!LettuceFutures.awaitAll(1, TimeUnit.MINUTES, sizes.toArray(RedisFuture[]::new))) {
			throw new IllegalStateException("MEMORY USAGE of " + sizes.size() + " keys took over a minute");
		}
		// a key that expired after the scan has no size
		return sizes.stream().map((size) -> size.toCompletableFuture().join()).mapToLong((size) -> (size == null) ? 0 : size).sum();
	}

	/** Deletes every key. */
	void flush() {
		this.redis.command("FLUSHALL");
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}

}
