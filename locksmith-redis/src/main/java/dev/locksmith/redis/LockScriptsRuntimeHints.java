package dev.locksmith.redis;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/** Keeps the Lua scripts that {@link LockScripts} and {@link RedisFencedValues} read from the class path in a native image. */
class LockScriptsRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern("dev/locksmith/redis/*.lua");
	}

}
