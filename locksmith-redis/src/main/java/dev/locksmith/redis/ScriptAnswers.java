package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.ReleaseNotifications.Listener;

/** Reads the answers of the lock scripts, as the header of each {@code .lua} file describes them. */
final class ScriptAnswers {

	private ScriptAnswers() {
	}

	/** {@code acquire.lua}: {@code {1, token...}} when granted, {@code {0, i, pttl, fence}} when KEYS[i] is busy. */
	static AcquireResult acquired(List<String> keys, List<?> answer) {
		if ((Long) answer.get(0) == 1L) {
			Map<String, Long> fencingTokens = new LinkedHashMap<>();
			for (int i = 0; i < keys.size(); i++) {
				fencingTokens.put(keys.get(i), (Long) answer.get(i + 1));
			}
			return AcquireResult.granted(fencingTokens);
		}
		String busyKey = keys.get(((Long) answer.get(1)).intValue() - 1);
		return AcquireResult.busy(busyKey, remainingLease((Long) answer.get(2)), busyFence(answer));
	}

	/**
	 * {@code release.lua}: {@code {released, channel, message, ...}}; tells {@code handOvers} of each
	 * hand-over and returns how many locks were released.
	 */
	static int released(List<?> answer, RedisLockKeys keys, Listener handOvers) {
		for (int i = 1; i + 1 < answer.size(); i += 2) {
			HandOverMessages.deliver(keys.keyOfChannel(text(answer.get(i))), text(answer.get(i + 1)), handOvers);
		}
		return ((Long) answer.get(0)).intValue();
	}

	/** {@code extend.lua} and {@code extend-shares.lua}: whether each lease was extended. */
	static List<Boolean> flags(List<?> answer) {
		return answer.stream().map((flag) -> (Long) flag == 1L).toList();
	}

	private static String text(Object bulk) {
		return (bulk instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(bulk);
	}

	/** The refused key's fencing counter: the fourth element of a refusal. */
	static long busyFence(List<?> answer) {
		return (Long) answer.get(3);
	}

	/**
	 * The retry hint from a busy lock's PTTL: 0 means its lease ends within this millisecond, so look
	 * again in one (not "no hint", which would wait a whole re-check interval); -1 means it has no lease.
	 */
	static Duration remainingLease(long pttl) {
		return Duration.ofMillis((pttl == 0) ? 1 : Math.max(0, pttl));
	}

}
