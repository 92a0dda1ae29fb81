package dev.locksmith.autoconfigure;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.LockStore;
import dev.locksmith.redis.RedlockLockStore;

/**
 * The Redlock store, {@code locksmith.store=redlock}: its own connections to the servers of
 * {@code locksmith.redlock.nodes}, checked at startup. It needs no {@code RedisConnectionFactory} of the
 * application's.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(LockStoreCondition.class)
@ConditionalOnClass({ LettuceConnectionFactory.class, RedisClient.class, RedlockLockStore.class })
class RedlockStoreConfiguration {

	static final String NODES_PROPERTY = "locksmith.redlock.nodes";

	/**
	 * The store, with its connections to the servers, which the context starts and closes with the parts
	 * it made; one the application defines wins.
	 */
	@Bean
	@ConditionalOnMissingBean(LockStore.class)
	RedlockLockStore redlockLockStore(LocksmithProperties properties) {
		RedlockLockStore.Builder store = RedlockLockStore.builder(properties.getRedlock().getNodes())
			.source(NODES_PROPERTY)
			.shortestTtl(properties.getDefaultTtl());
		EngineProperty.apply("locksmith.key-prefix", properties.getKeyPrefix(),
				() -> store.keyPrefix(properties.getKeyPrefix()));
		EngineProperty.apply("locksmith.redis-timeout", properties.getRedisTimeout(),
				() -> store.timeout(properties.getRedisTimeout()));
		EngineProperty.apply(ReconnectDelayCustomizer.PROPERTY, properties.getRedis().getMaxReconnectDelay(),
				() -> store.maxReconnectDelay(properties.getRedis().getMaxReconnectDelay()));
		Duration nodeTimeout = properties.getRedlock().getNodeTimeout();
		if (nodeTimeout != null) {
			EngineProperty.apply("locksmith.redlock.node-timeout", nodeTimeout, () -> store.nodeTimeout(nodeTimeout));
		}
		try {
			return store.build();
		}
		catch (IllegalArgumentException ex) {
			throw NoLockStoreException.forRedlockNodes(ex);
		}
	}

}
