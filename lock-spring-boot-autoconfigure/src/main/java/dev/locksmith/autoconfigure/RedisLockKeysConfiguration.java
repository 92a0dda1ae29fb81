package dev.locksmith.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.redis.RedisLockKeys;

/** The names of Locksmith's keys and channels, shared by the stores that keep locks in Redis. */
@Configuration(proxyBeanMethods = false)
class RedisLockKeysConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RedisLockKeys redisLockKeys(LocksmithProperties properties) {
		return EngineProperty.apply("locksmith.key-prefix", properties.getKeyPrefix(),
				() -> new RedisLockKeys(properties.getKeyPrefix()));
	}

}
