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

import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockBackend;
import dev.locksmith.core.ReleaseNotifications;
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
	 * it made for the beans below.
	 */
	@Bean
	@ConditionalOnMissingBean
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

	@Bean(destroyMethod = "")
	@ConditionalOnMissingBean(LockBackend.class)
	LockBackend lockBackend(RedlockLockStore store) {
		return store.lockBackend();
	}

	@Bean
	@ConditionalOnMissingBean
	LockAdministration lockAdministration(RedlockLockStore store, LocksmithProperties properties) {
		return EngineProperty.apply("locksmith.redis-timeout", properties.getRedisTimeout(),
				() -> new TimeBoundedLockAdministration(store.lockAdministration(), properties.getRedisTimeout()));
	}

	@Bean(destroyMethod = "")
	@ConditionalOnMissingBean(ReleaseNotifications.class)
	@ConditionalOnProperty(name = "locksmith.wait.strategy", havingValue = "pubsub", matchIfMissing = true)
	ReleaseNotifications redlockReleaseNotifications(RedlockLockStore store) {
		return store.releaseNotifications();
	}

}
