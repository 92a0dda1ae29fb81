package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.locksmith.testing.RedisServer;

import static org.awaitility.Awaitility.await;

/**
 * The fault suite's referee, on a Redis that is never faulted: it counts entries into critical
 * sections and overlaps, and keeps the fenced counters that the workers read and write.
 */
final class Checker implements AutoCloseable {

	/** The keys the workers lock; each has a fenced counter. */
	static final List<String> KEYS = List.of("account:1", "account:2", "account:3");

	private static final String STATS = "checker:stats";

	private static final String STOP = "checker:stop";

	private static final RedisScript<Long> ENTER = script("enter.lua");

	private static final RedisScript<Long> READ = script("fenced-read.lua");

	private static final RedisScript<Long> TAKE_HOLD = script("take-hold.lua");

	private static final RedisScript<Long> WRITE = script("fenced-write.lua");

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> SNAPSHOT = RedisScript
		.of(new ClassPathResource("dev/locksmith/faults/snapshot.lua"), List.class);

	private final LettuceConnectionFactory connections;

	private final StringRedisTemplate redis;

	Checker(int port) {
		this.connections = RedisServer.connectionFactory(port);
		this.redis = new StringRedisTemplate(this.connections);
	}

	/** Records that the calling process entered the critical section of {@code key}. */
	void enter(String key) {
		this.redis.execute(ENTER, List.of(inside(key), STATS));
	}

	void exit(String key) {
		this.redis.opsForValue().decrement(inside(key));
	}

	/** The key whose critical section the thread of process {@code pid} that stays inside is in, or null. */
	@Nullable String insideOf(long pid) {
		return this.redis.opsForValue().get(stays(pid));
	}

	/** Asks one thread of process {@code pid} to stay inside its next critical section, between read and write, until {@link #letGoOn}. */
	void holdInside(long pid) {
		this.redis.opsForValue().set(held(pid), "1");
	}

	void letGoOn(long pid) {
		this.redis.delete(List.of(held(pid), stays(pid)));
	}

	/**
	 * Waits, inside a critical section, for as long as the calling process is asked to stay there: one
	 * thread of it stays, and the process's other threads go on, so the lock can pass to one of them.
	 */
	void awaitLeaveToGoOn(String key) {
		long pid = ProcessHandle.current().pid();
		if (this.redis.execute(TAKE_HOLD, List.of(held(pid), stays(pid)), key) != 1L) {
			return;
		}
		await().atMost(Duration.ofMinutes(2))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> !Boolean.TRUE.equals(this.redis.hasKey(held(pid))));
	}

	/** The counter's value for a writer with {@code fencingToken}, or -1 when the token is stale. */
	long read(String key, long fencingToken) {
		return this.redis.execute(READ, List.of(counter(key), STATS), Long.toString(fencingToken));
	}

	/** Whether the write of {@code value} with {@code fencingToken} was accepted. */
	boolean write(String key, long value, long fencingToken) {
		return this.redis.execute(WRITE, List.of(counter(key), STATS), Long.toString(value),
				Long.toString(fencingToken)) == 1L;
	}

	/** The highest fencing token that the counter of {@code key} has seen. */
	long seen(String key) {
		Object seen = this.redis.opsForHash().get(counter(key), "seen");
		return (seen != null) ? Long.parseLong(seen.toString()) : 0;
	}

	void count(String event) {
		this.redis.opsForHash().increment(STATS, event, 1);
	}

	/**
	 * The counters at one instant: sections, overlaps, accepted, rejected, the workers' failures by
	 * kind, and {@code sum}, the sum of the fenced counters (with no lost update, the accepted writes).
	 */
	Map<String, Long> snapshot() {
		List<String> keys = new ArrayList<>(List.of(STATS));
		KEYS.stream().map(Checker::counter).forEach(keys::add);
		List<?> flat = this.redis.execute(SNAPSHOT, keys);
		Map<String, Long> snapshot = new HashMap<>();
		for (int i = 0; i + 1 < flat.size(); i += 2) {
			snapshot.put(flat.get(i).toString(), Long.parseLong(flat.get(i + 1).toString()));
		}
		return snapshot;
	}

	void stopWorkers() {
		this.redis.opsForValue().set(STOP, "1");
	}

	boolean stopped() {
		return Boolean.TRUE.equals(this.redis.hasKey(STOP));
	}

	@Override
	public void close() {
		this.connections.destroy();
	}

	private static String inside(String key) {
		return "checker:inside:" + key;
	}

	private static String held(long pid) {
		return "checker:hold:" + pid;
	}

	private static String stays(long pid) {
		return "checker:stays:" + pid;
	}

	private static String counter(String key) {
		return "checker:counter:" + key;
	}

	private static RedisScript<Long> script(String name) {
		return RedisScript.of(new ClassPathResource("dev/locksmith/faults/" + name), Long.class);
	}

}
