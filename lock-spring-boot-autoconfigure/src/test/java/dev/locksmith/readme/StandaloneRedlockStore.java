package dev.locksmith.readme;

// tag::without-spring-boot-redlock[]
import java.time.Duration;
import java.util.List;

import dev.locksmith.redis.RedlockLockStore;

class StandaloneRedlockStore {

	static RedlockLockStore redlock() {
		return RedlockLockStore
			.builder(List.of("redis://a:6379", "redis://b:6379", "redis://c:6379"))
			.timeout(Duration.ofSeconds(2))         // a whole round; each server gets a quarter of it
			.build();                               // checks the URLs; connects on start()
	}

}
// end::without-spring-boot-redlock[]
