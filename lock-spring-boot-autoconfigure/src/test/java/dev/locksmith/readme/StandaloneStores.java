package dev.locksmith.readme;

import java.time.Duration;
import java.util.List;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.redis.RedlockLockStore;

/** The configuration guide's stores without Spring Boot. */
final class StandaloneStores {

	private StandaloneStores() {
	}

	static void lockOnRedis(String host, int port, Runnable work) throws InterruptedException {
		// tag::without-spring-boot-redis[]
		LettuceConnectionFactory connections = new LettuceConnectionFactory(host, port);
		connections.afterPropertiesSet();
		connections.start();

		RedisLockStore store = RedisLockStore.builder(connections)
			.keyPrefix("orders:")                   // default lock:
			.claimLease(Duration.ofSeconds(2))      // default 2s
			.build();
		DefaultLockService locks = DefaultLockService.builder(store.lockBackend())
			.releaseNotifications(store.releaseNotifications())
			.build();
		store.start();                              // subscribes for hand-overs, loads the scripts

		try (LockHandle lock = locks.acquire("invoice:42", LockOptions.ofTtl(Duration.ofSeconds(30)))) {
			work.run();                             // under the lock
		}

		locks.close();
		store.close();                              // stops and frees what the store made
		connections.destroy();
		// end::without-spring-boot-redis[]
	}

	static RedlockLockStore redlock() {
		// tag::without-spring-boot-redlock[]
		RedlockLockStore store = RedlockLockStore
			.builder(List.of("redis://a:6379", "redis://b:6379", "redis://c:6379"))
			.timeout(Duration.ofSeconds(2))         // a whole round; each server gets a quarter of it
			.build();                               // checks the URLs; connects on start()
		// end::without-spring-boot-redlock[]
		return store;
	}

}
