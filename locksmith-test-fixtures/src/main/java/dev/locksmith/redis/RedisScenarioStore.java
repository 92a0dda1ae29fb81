package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.locksmith.testing.RedisServer;

/**
 * A {@link ScenarioStore} of real {@code redis-server}s: one, the independent servers of Redlock (each
 * key on every server, its holder the owner a majority of them name), or the masters of a cluster (each
 * key on one of them). Its calls are the EVAL and EVALSHA of every server, from {@code INFO commandstats},
 * less the scripts its own snapshots ran; its state is one {@code SCAN} script on each server.
 */
final class RedisScenarioStore implements ScenarioStore {

	/** What follows the owner token in a lock released before its minimum hold ended (extend.lua). */
	private static final String RELEASED_MARK = "+released";

	/** The field of a deadlines hash that counts the cohort passes (see {@code hand-on.lua}), not a waiter. */
	private static final String COHORT_PASSES = "cohort-passes";

	private static final String SNAPSHOT = """
			local t = redis.call('TIME')
			local out = {tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))}
			local cursor = '0'
			repeat
			  local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
			  cursor = page[1]
			  for _, k in ipairs(page[2]) do
			    local kind = redis.call('TYPE', k).ok
			    local value = ''
			    if kind == 'string' then value = redis.call('GET', k)
			    elseif kind == 'list' then value = table.concat(redis.call('LRANGE', k, 0, -1), ',')
			    elseif kind == 'hash' then value = table.concat(redis.call('HGETALL', k), ',')
			    elseif kind == 'zset' then value = table.concat(redis.call('ZRANGE', k, 0, -1, 'WITHSCORES'), ',') end
			    table.insert(out, k .. '\\t' .. kind .. '\\t' .. redis.call('PTTL', k) .. '\\t' .. value)
			  end
			until cursor == '0'
			return out
			""";

	private final List<RedisServer> servers;

	private final Supplier<LockEngines.Connected> connector;

	/** How many servers must hold a value for it to count: a majority of Redlock's, one master's on a cluster. */
	private final int quorum;

	private final int boundScale;

	private long ownScripts;

	private RedisScenarioStore(List<RedisServer> servers, Supplier<LockEngines.Connected> connector, int quorum,
			int boundScale) {
		this.servers = List.copyOf(servers);
		this.connector = connector;
		this.quorum = quorum;
		this.boundScale = boundScale;
	}

	/**
	 * Servers that each keep every key, one Redis or Redlock's: a value counts when a majority hold it,
	 * and the script bounds are per server, as every operation runs on each.
	 */
	static RedisScenarioStore replicated(List<RedisServer> servers, Supplier<LockEngines.Connected> connector) {
		return new RedisScenarioStore(servers, connector, servers.size() / 2 + 1, servers.size());
	}

	/**
	 * The masters of a cluster, each keeping the keys of its slots: a value counts as the one master that
	 * holds it says, and the script bounds are those of one Redis.
	 */
	static RedisScenarioStore sharded(List<RedisServer> masters, Supplier<LockEngines.Connected> connector) {
		return new RedisScenarioStore(masters, connector, 1, 1);
	}

	@Override
	public LockEngines engines(int count, Duration recheckInterval) {
		return new LockEngines(count, recheckInterval, this.connector);
	}

	@Override
	public void flush() {
		this.servers.forEach((server) -> server.command("FLUSHALL"));
	}

	@Override
	public synchronized void resetStats() {
		this.servers.forEach(RedisServer::resetStats);
		this.ownScripts = 0;
	}

	@Override
	public synchronized long calls() {
		return this.servers.stream().mapToLong((server) -> server.callsOf("evalsha", "eval")).sum() - this.ownScripts;
	}

	@Override
	public String callsName() {
		return "scripts";
	}

	@Override
	public int boundScale() {
		return this.boundScale;
	}

	@Override
	public synchronized State state() {
		List<String> replies = this.servers.stream()
			.map((server) -> server.command("EVAL", SNAPSHOT, "0", "lock:*"))
			.toList();
		this.ownScripts += replies.size();
		return Snapshot.merge(replies, this.quorum, this.quorum == 1);
	}

	/**
	 * Every Locksmith key at one moment: its PTTL (-1 when any server keeps it without one, else the
	 * longest), its value (the one at least {@code quorum} servers hold, else empty), and the first
	 * server's clock.
	 */
	private record Snapshot(long clockMillis, Map<String, Long> pttls, Map<String, String> values,
			boolean oneCounterPerKey) implements State {

		static Snapshot merge(List<String> replies, int quorum, boolean oneCounterPerKey) {
			Map<String, Long> pttls = new LinkedHashMap<>();
			Map<String, Map<String, Integer>> votes = new LinkedHashMap<>();
			for (String reply : replies) {
				String[] lines = reply.split("\n");
				for (int i = 1; i < lines.length; i++) {
					String[] fields = lines[i].split("\t", 4);
					long pttl = Long.parseLong(fields[2]);
					pttls.merge(fields[0], pttl, (a, b) -> (a == -1 || b == -1) ? -1 : Math.max(a, b));
					votes.computeIfAbsent(fields[0], (k) -> new HashMap<>())
						.merge((fields.length > 3) ? fields[3] : "", 1, Integer::sum);
				}
			}
			Map<String, String> values = new LinkedHashMap<>();
			votes.forEach((key, counts) -> values.put(key, counts.entrySet().stream()
				.filter((vote) -> vote.getValue() >= quorum)
				.map(Map.Entry::getKey)
				.findFirst()
				.orElse("")));
			return new Snapshot(Long.parseLong(replies.get(0).split("\n")[0]), pttls, values, oneCounterPerKey);
		}

		private @Nullable String value(String redisKey) {
			String value = this.values.get(redisKey);
			return (value == null || value.isEmpty()) ? null : value;
		}

		@Override
		public @Nullable String holder(String key) {
			String value = value(LockEngines.KEYS.lockKey(key));
			return (value != null && value.endsWith(RELEASED_MARK))
					? value.substring(0, value.length() - RELEASED_MARK.length()) : value;
		}

		/** The share holders' leases for a lock held as a share ({@code @read}, {@code @permits=n}). */
		@Override
		public List<String> holders(String key) {
			String holder = holder(key);
			if (holder == null || !holder.matches("@(read|permits=\\d+)")) {
				return (holder != null) ? List.of(holder) : List.of();
			}
			List<String> live = new ArrayList<>();
			String[] fields = this.values.getOrDefault(LockEngines.KEYS.holdersKey(key), "").split(",");
			for (int i = 0; i + 1 < fields.length; i += 2) {
				if (Double.parseDouble(fields[i + 1]) > this.clockMillis) {
					live.add(fields[i].endsWith(RELEASED_MARK)
							? fields[i].substring(0, fields[i].length() - RELEASED_MARK.length()) : fields[i]);
				}
			}
			return live;
		}

		@Override
		public @Nullable Long fencingCounter(String key) {
			String counter = this.oneCounterPerKey ? value(LockEngines.KEYS.fenceKey(key)) : null;
			return (counter != null) ? Long.valueOf(counter) : null;
		}

		@Override
		public List<Queued> queue(String key) {
			String queue = this.values.getOrDefault(LockEngines.KEYS.queueKey(key), "");
			String[] deadlines = this.values.getOrDefault(LockEngines.KEYS.deadlinesKey(key), "").split(",");
			Map<String, Long> deadlineOf = new HashMap<>();
			for (int i = 0; i + 1 < deadlines.length; i += 2) {
				if (!deadlines[i].equals(COHORT_PASSES)) {
					deadlineOf.put(deadlines[i], Long.parseLong(deadlines[i + 1]));
				}
			}
			List<Queued> waiters = new ArrayList<>();
			for (String owner : queue.isEmpty() ? new String[0] : queue.split(",")) {
				waiters.add(new Queued(owner, deadlineOf.getOrDefault(owner, 0L)));
			}
			return waiters;
		}

		@Override
		public List<String> withoutTtl() {
			List<String> found = new ArrayList<>();
			this.pttls.forEach((key, pttl) -> {
				if (pttl == -1) {
					found.add("'" + key + "' has no TTL: " + this.values.get(key));
				}
			});
			return found;
		}

		@Override
		public List<String> queuedAfter(long clockMillis) {
			List<String> live = new ArrayList<>();
			for (Map.Entry<String, String> entry : this.values.entrySet()) {
				if (entry.getKey().startsWith("lock:deadlines:")) {
					String[] fields = entry.getValue().split(",");
					for (int i = 0; i + 1 < fields.length; i += 2) {
						if (!fields[i].equals(COHORT_PASSES) && Long.parseLong(fields[i + 1]) > clockMillis) {
							live.add(entry.getKey() + " " + fields[i]);
						}
					}
				}
			}
			return live;
		}

		@Override
		public String lease(String key) {
			return "PTTL " + this.pttls.get(LockEngines.KEYS.lockKey(key)) + "ms";
		}

		@Override
		public String describe(List<String> keys) {
			StringBuilder text = new StringBuilder();
			for (String key : keys) {
				text.append(key)
					.append("={holder=")
					.append(value(LockEngines.KEYS.lockKey(key)))
					.append(", holders=")
					.append(holders(key))
					.append(", queue=[")
					.append(this.values.getOrDefault(LockEngines.KEYS.queueKey(key), ""))
					.append("]} ");
			}
			return text.toString().trim();
		}

	}

}
