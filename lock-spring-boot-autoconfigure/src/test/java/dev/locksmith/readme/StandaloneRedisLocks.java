package dev.locksmith.readme;

// tag::without-spring-boot-redis[]
import java.time.Duration;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.redis.RedisLockStore;

class StandaloneRedisLocks {

	static void lockOnRedis(String host, int port, Runnable work) throws InterruptedException {
		LettuceConnectionFactory connections = new LettuceConnectionFactory(host, port);
		connections.afterPropertiesSet();
		connections.start();

		RedisLockStore store = RedisLockStore.builder(connections)
			.keyPrefix("orders:")                   // default lock:
			.claimLease(Duration.ofSeconds(2))      // default 2s
			.build();
		DefaultLockService locks = DefaultLockService.builder(store).build();
		store.start();                              // subscribes for hand-overs, loads the scripts

		try (LockHandle lock = locks.acquire("invoice:42", LockOptions.ofTtl(Duration.ofSeconds(30)))) {
			work.run();                             // under the lock
		}

		locks.close();
		store.close();                              // stops and frees what the store made
		connections.destroy();
	}

}
// end::without-spring-boot-redis[]
