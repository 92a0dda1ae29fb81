package dev.locksmith.benchmarks.scenario;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Who holds a shared lock at the moment, counted in Redis by the sections themselves: readers,
 * writers or permit holders. Entering, a section adds itself to the holders of its kind, raises the
 * most seen at once, and counts an overlap when it finds more holders of its kind than the lock
 * admits or any holder that it excludes; leaving, it takes itself off. An overlap means the lock
 * failed.
 */
enum Holders {

	READERS("bench:shared:readers", "bench:shared:writers", Integer.MAX_VALUE),

	WRITERS("bench:shared:writers", "bench:shared:readers", 1),

	PERMIT_HOLDERS("bench:shared:permit-holders", "bench:shared:no-one", ReadMostlyAndPermits.PERMITS);

	/** Sections that found an overlap, whatever their kind. */
	static final String OVERLAPS = "bench:shared:overlaps";

	private static final String ENTER = """
			local holders = redis.call('INCR', KEYS[1])
			if holders > tonumber(redis.call('GET', KEYS[2]) or '0') then
				redis.call('SET', KEYS[2], holders)
			end
			if holders > tonumber(ARGV[1]) or tonumber(redis.call('GET', KEYS[3]) or '0') > 0 then
				redis.call('INCR', KEYS[4])
			end
			return holders
			""";

	private final String key;

	/** The most holders of this kind seen at once. */
	final String mostKey;

	private final String excluded;

	private final int admitted;

	Holders(String key, String excluded, int admitted) {
		this.key = key;
		this.mostKey = key + ":most";
		this.excluded = excluded;
		this.admitted = admitted;
	}

	/** Counts a section of this kind in, in one script call. */
	void enter(RedisCommands<String, String> redis) {
		redis.eval(ENTER, ScriptOutputType.INTEGER, new String[] { this.key, this.mostKey, this.excluded, OVERLAPS },
				Integer.toString(this.admitted));
	}

	/** Counts a section of this kind out. */
	void leave(RedisCommands<String, String> redis) {
		redis.decr(this.key);
	}

}
