package dev.locksmith.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;

/** The Lua scripts of the Redis backend, each read once from the classpath with its shared helpers. */
final class LockScripts {

	static final RedisScript<List> ACQUIRE = withHandOn("acquire.lua", List.class);

	static final RedisScript<List> RELEASE = withHandOn("release.lua", List.class);

	static final RedisScript<Long> STEP_ASIDE = withHandOn("step-aside.lua", Long.class);

	static final RedisScript<List> EXTEND = RedisScript.of(read("extend.lua"), List.class);

	static final RedisScript<List> ACQUIRE_SHARE = withHandOn("acquire-share.lua", List.class);

	static final RedisScript<Long> RELEASE_SHARE = withHandOn("release-share.lua", Long.class);

	static final RedisScript<List> EXTEND_SHARES = withHandOn("extend-shares.lua", List.class);

	static final RedisScript<Long> IS_LOCKED = RedisScript.of(read("is-locked.lua"), Long.class);

	static final RedisScript<Long> FORCE_RELEASE = withHandOn("force-release.lua", Long.class);

	static final RedisScript<Long> RAISE_FENCES = RedisScript.of(read("raise-fences.lua"), Long.class);

	static final RedisScript<Long> ANNOUNCE_RELEASE = RedisScript.of(read("announce-release.lua"), Long.class);

	/** The scripts that the lock engine runs on its hot path, loaded into Redis at startup. */
	static final List<RedisScript<?>> HOT_PATH = List.of(ACQUIRE, RELEASE, EXTEND);

	private LockScripts() {
	}

	private static <T> RedisScript<T> withHandOn(String name, Class<T> resultType) {
		return RedisScript.of(read("hand-on.lua") + read(name), resultType);
	}

	private static String read(String name) {
		try {
			return new ClassPathResource("dev/locksmith/redis/" + name).getContentAsString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read Lua script " + name, ex);
		}
	}

}
