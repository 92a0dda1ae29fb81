package dev.locksmith.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * The smallest Redis ACL that Locksmith's user needs under a key prefix, and the explanation added to a
 * failure when Redis refused one of its permissions ({@code NOPERM}, or a script's "The user executing
 * the script can't ..."): Redis names a refused command but not a refused key or a command inside a
 * script, so the explanation spells out the whole ACL with the application's prefix.
 */
final class RedisAcl {

	/** The commands Locksmith sends: scripts, release notifications, health, the locks endpoint, Redlock's clocks. */
	private static final List<String> CALLS = List.of("+evalsha", "+eval", "+script|load", "+subscribe",
			"+unsubscribe", "+ping", "+scan", "+get", "+pttl", "+zrange", "+time");

	/** The commands its Lua scripts call. */
	private static final List<String> SCRIPT_CALLS = List.of("+set", "+del", "+rpush", "+lpush", "+exists",
			"+pexpire", "+hget", "+hset", "+hdel", "+hexists", "+llen", "+lrange", "+lrem", "+zadd", "+zcount",
			"+zrangebyscore", "+zrem", "+zremrangebyscore", "+zscore", "+publish");

	private RedisAcl() {
	}

	/** The rules of {@code ACL SETUSER} that grant the keys and channels of {@code keys} and Locksmith's commands. */
	static List<String> rules(RedisLockKeys keys) {
		List<String> rules = new ArrayList<>(keys.aclPatterns());
		rules.add("-@all");
		rules.addAll(CALLS);
		rules.addAll(SCRIPT_CALLS);
		return rules;
	}

	/** {@code message}, followed by the ACL Locksmith needs when it reports a refused permission. */
	static String explain(String message, RedisLockKeys keys) {
		if (!isRefusal(message)) {
			return message;
		}
		return message + " (the Redis user lacks a permission Locksmith needs; it needs exactly: "
				+ String.join(" ", rules(keys)) + ")";
	}

	/** Whether {@code message} is Redis refusing a permission. */
	static boolean isRefusal(String message) {
		return message.contains("NOPERM") || message.contains("user executing the script can't");
	}

}
