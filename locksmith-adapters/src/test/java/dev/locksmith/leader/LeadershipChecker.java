package dev.locksmith.leader;

import java.util.List;
import java.util.Set;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.locksmith.testing.RedisServer;

/**
 * The referee of the leadership process tests, on a Redis of its own that no fault touches: it keeps
 * the fenced counter the leaders act on, counts accepted and rejected acts and acts of two processes
 * with one leadership, and records who holds a Spring Integration leadership and the grants made while
 * another process held one (two-leaders too).
 */
final class LeadershipChecker implements AutoCloseable {

	private static final RedisScript<Long> ACT = RedisScript.of(new ClassPathResource("dev/locksmith/leader/act.lua"),
			Long.class);

	private static final RedisScript<Long> GRANT = RedisScript
		.of(new ClassPathResource("dev/locksmith/leader/grant.lua"), Long.class);

	private static final String COUNTER = "fenced:counter";

	private static final String COUNTS = "checker:counts";

	private static final String LEADERSHIPS = "checker:leaderships";

	private static final String GRANTED = "checker:granted";

	private final LettuceConnectionFactory connections;

	private final StringRedisTemplate redis;

	LeadershipChecker(int port) {
		this.connections = RedisServer.connectionFactory(port);
		this.redis = new StringRedisTemplate(this.connections);
	}

	/**
	 * Acts on the fenced counter as process {@code pid} with {@code fencingToken}.
	 * @return 1 when accepted, 0 when rejected as stale, -1 when the process is asked to hold
	 */
	long act(long fencingToken, long pid) {
		return this.redis.execute(ACT, List.of(COUNTER, COUNTS, LEADERSHIPS, hold(pid)), Long.toString(fencingToken),
				Long.toString(pid));
	}

	/** Asks process {@code pid} to hold before its next act, until {@link #letGo}. */
	void holdBeforeNextAct(long pid) {
		this.redis.opsForValue().set(hold(pid), "asked");
	}

	/** Whether process {@code pid} holds, asked to, with its next act ready to be made. */
	boolean holds(long pid) {
		return "holding".equals(this.redis.opsForValue().get(hold(pid)));
	}

	void letGo(long pid) {
		this.redis.delete(hold(pid));
	}

	/** The leaderships that acted, in the order they first did. */
	List<Leadership> leaderships() {
		return this.redis.opsForList().range(LEADERSHIPS, 0, -1).stream().map(Leadership::parse).toList();
	}

	/** A count of the checker: accepted, rejected, rejected:&lt;pid&gt;, two-leaders or grants. */
	long count(String name) {
		Object count = this.redis.opsForHash().get(COUNTS, name);
		return (count != null) ? Long.parseLong(count.toString()) : 0;
	}

	/** Records that process {@code pid} was granted a Spring Integration leadership. */
	void granted(long pid) {
		this.redis.execute(GRANT, List.of(GRANTED, COUNTS), Long.toString(pid));
	}

	/** Records that process {@code pid} no longer holds its Spring Integration leadership. */
	void revoked(long pid) {
		this.redis.opsForSet().remove(GRANTED, Long.toString(pid));
	}

	/** The processes that were granted a Spring Integration leadership and have not been revoked since. */
	Set<String> granted() {
		return this.redis.opsForSet().members(GRANTED);
	}

	@Override
	public void close() {
		this.connections.destroy();
	}

	private static String hold(long pid) {
		return "checker:hold:" + pid;
	}

	/** A leadership's first accepted act: its process, fencing token, and the checker's time then. */
	record Leadership(long pid, long token, long atMillis) {

		static Leadership parse(String entry) {
			String[] parts = entry.split(":");
			return new Leadership(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
		}

	}

}
