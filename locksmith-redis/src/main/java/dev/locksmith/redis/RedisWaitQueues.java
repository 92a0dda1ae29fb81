package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.OwnerEntries;
import dev.locksmith.core.StoredOwner;
import dev.locksmith.core.WaitQueue;
import dev.locksmith.core.WaitQueue.Waiter;

/**
 * Lists the locks that are held or waited for on Redis, as the scripts keep them: {@code SCAN} finds the
 * wait queues and the lock keys (never {@code KEYS}), then one pipeline reads, for each lock, its value,
 * fencing counter, queue and live share holders, against the server's {@code TIME}, and a second one each
 * waiter's deadline, with {@code HGET}: the commands of the documented ACL.
 * The fencing counter is at least the server's time in microseconds when it was issued, so how long ago
 * the last grant was is told by the server's clock. Blocks: its caller runs it on a thread of its own.
 */
final class RedisWaitQueues {

	/** The commands the first pipeline sends for each lock. */
	private static final int READS = 4;

	private final StringRedisTemplate redis;

	private final RedisLockKeys keys;

	RedisWaitQueues(StringRedisTemplate redis, RedisLockKeys keys) {
		this.redis = redis;
		this.keys = keys;
	}

	/** The locks that are held or waited for, at most {@code limit}, those with waiters first. */
	List<WaitQueue> list(int limit) {
		Set<String> lockKeys = new LinkedHashSet<>();
		scan(this.keys.queueKeyPattern(), this.keys::keyOfQueue, lockKeys, limit);
		scan(this.keys.lockKeyPattern(), this.keys::keyOf, lockKeys, limit);
		Long nowMicros = this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands()
			.time(TimeUnit.MICROSECONDS));
		long now = (nowMicros != null) ? nowMicros : 0;
		List<String> listed = List.copyOf(lockKeys);
		List<Object> answers = this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
			listed.forEach((key) -> read(connection, key, now / 1000));
			return null;
		});
		List<List<String>> entries = new ArrayList<>(listed.size());
		for (int i = 0; i < listed.size(); i++) {
			entries.add(stringsOf(answers.get(READS * i + 2)));
		}
		List<Object> deadlines = deadlines(listed, entries);
		List<WaitQueue> queues = new ArrayList<>(listed.size());
		int deadline = 0;
		for (int i = 0; i < listed.size(); i++) {
			List<Object> own = deadlines.subList(deadline, deadline + entries.get(i).size());
			deadline += own.size();
			WaitQueue queue = queueOf(listed.get(i), answers.subList(READS * i, READS * (i + 1)), entries.get(i), own,
					now);
			if (!queue.holders().isEmpty() || !queue.waiters().isEmpty()) {
				queues.add(queue);
			}
		}
		return queues;
	}

	/** The deadline of each entry of each lock's queue, all in one list, in order. */
	private List<Object> deadlines(List<String> listed, List<List<String>> entries) {
		return this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
			for (int i = 0; i < listed.size(); i++) {
				byte[] deadlinesKey = raw(this.keys.deadlinesKey(listed.get(i)));
				entries.get(i).forEach((entry) -> connection.hashCommands().hGet(deadlinesKey, raw(entry)));
			}
			return null;
		});
	}

	/** Adds the application's keys of the Redis keys that match {@code pattern} until {@code into} holds {@code limit}. */
	private void scan(String pattern, UnaryOperator<String> keyOf, Collection<String> into, int limit) {
		ScanOptions options = ScanOptions.scanOptions().match(pattern).count(500).build();
		try (Cursor<String> cursor = this.redis.scan(options)) {
			while (cursor.hasNext() && into.size() < limit) {
				String found = cursor.next();
				try {
					into.add(keyOf.apply(found));
				}
				catch (IllegalArgumentException ex) {
					// a key under the prefix that Locksmith did not write
				}
			}
		}
	}

	/** Reads what one lock's entries hold, in the order {@link #queueOf} takes them. */
	private void read(RedisConnection connection, String key, long nowMillis) {
		connection.stringCommands().get(raw(this.keys.lockKey(key)));
		connection.stringCommands().get(raw(this.keys.fenceKey(key)));
		connection.listCommands().lRange(raw(this.keys.queueKey(key)), 0, -1);
		connection.zSetCommands().zRangeByScore(raw(this.keys.holdersKey(key)), nowMillis + 1, Double.POSITIVE_INFINITY);
	}

	/**
	 * One lock from its reads (value, fencing counter, queue, live share holders), its queue's entries and
	 * their deadlines, in the queue's order.
	 */
	private static WaitQueue queueOf(String key, List<Object> answers, List<String> queue, List<Object> deadlines,
			long nowMicros) {
		long fence = parse((String) answers.get(1));
		List<StoredOwner> holders = holders((String) answers.get(0), stringsOf(answers.get(3)));
		Duration heldFor = (!holders.isEmpty() && fence > 0 && fence <= nowMicros)
				? Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(nowMicros - fence)) : null;
		return new WaitQueue(key, holders, fence, heldFor, waiters(queue, deadlines, nowMicros / 1000));
	}

	/** The strings of a list or set answer, in its order; none for anything else. */
	private static List<String> stringsOf(@Nullable Object answer) {
		return (answer instanceof Collection<?> strings) ? strings.stream().map(String::valueOf).toList() : List.of();
	}

	private static List<StoredOwner> holders(@Nullable String value, Collection<String> shareHolders) {
		if (value == null) {
			return List.of();
		}
		Collection<String> tokens = (OwnerEntries.shareOf(value + "/") != null) ? shareHolders : List.of(value);
		return tokens.stream().map(OwnerEntries::holderOf).map(StoredOwner::of).toList();
	}

	/** The waiters whose deadline has not passed, in queue order; a negative deadline marks a parked one. */
	private static List<Waiter> waiters(List<String> queue, List<Object> deadlines, long nowMillis) {
		List<Waiter> waiters = new ArrayList<>(queue.size());
		for (int i = 0; i < queue.size(); i++) {
			String entry = queue.get(i);
			long deadline = parse((String) deadlines.get(i));
			long left = Math.abs(deadline) - nowMillis;
			if (left > 0) {
				waiters.add(Waiter.of(OwnerEntries.tokenOf(entry), Duration.ofMillis(left), deadline < 0));
			}
		}
		return waiters;
	}

	private static long parse(@Nullable String number) {
		if (number == null) {
			return 0;
		}
		try {
			return (long) Double.parseDouble(number);
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	private byte[] raw(String key) {
		byte[] raw = this.redis.getStringSerializer().serialize(key);
		return (raw != null) ? raw : new byte[0];
	}

}
