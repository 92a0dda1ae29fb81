package dev.locksmith.autoconfigure;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockBackend;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.core.internal.TimeBoundedLockAdministration;
import dev.locksmith.redis.RedisLockKeys;
import dev.locksmith.redlock.RedlockLockAdministration;
import dev.locksmith.redlock.RedlockLockBackend;
import dev.locksmith.redlock.RedlockReleaseNotifications;
import dev.locksmith.redlock.RedlockServers;

/**
 * The Redlock store, {@code locksmith.store=redlock}: its own connections to the servers of
 * {@code locksmith.redlock.nodes}, checked at startup. It needs no {@code RedisConnectionFactory} of the
 * application's.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(LockStoreCondition.class)
@ConditionalOnClass({ LettuceConnectionFactory.class, RedisClient.class })
@Import(RedisLockKeysConfiguration.class)
class RedlockStoreConfiguration {

	static final String NODES_PROPERTY = "locksmith.redlock.nodes";

	@Bean
	@ConditionalOnMissingBean
	RedlockServers redlockServers(LocksmithProperties properties) {
		try {
			return RedlockServers.of(properties.getRedlock().getNodes(), NODES_PROPERTY, maxNodeTimeout(properties));
		}
		catch (IllegalArgumentException ex) {
			throw NoLockStoreException.forRedlockNodes(ex);
		}
	}

	@Bean
	@ConditionalOnMissingBean(LockBackend.class)
	RedlockLockBackend lockBackend(RedlockServers servers, RedisLockKeys keys, LocksmithProperties properties) {
		RedlockLockBackend.Builder builder = RedlockLockBackend.builder(servers.connectionFactories(), keys)
			.maxNodeTimeout(maxNodeTimeout(properties));
		Duration nodeTimeout = properties.getRedlock().getNodeTimeout();
		if (nodeTimeout != null) {
			EngineProperty.apply("locksmith.redlock.node-timeout", nodeTimeout, () -> builder.nodeTimeout(nodeTimeout));
		}
		return builder.build();
	}

	@Bean
	LockStoreWarmUp redlockLockStoreWarmUp(ObjectProvider<RedlockLockBackend> backend) {
		return new LockStoreWarmUp(() -> backend.ifAvailable(RedlockLockBackend::warmUp));
	}

	@Bean
	@ConditionalOnMissingBean
	LockAdministration lockAdministration(RedlockServers servers, RedisLockKeys keys, LocksmithProperties properties) {
		LockAdministration administration = new RedlockLockAdministration(servers.connectionFactories(), keys,
				properties.getRedisTimeout().dividedBy(2));
		return EngineProperty.apply("locksmith.redis-timeout", properties.getRedisTimeout(),
				() -> new TimeBoundedLockAdministration(administration, properties.getRedisTimeout()));
	}

	@Bean
	@ConditionalOnMissingBean(ReleaseNotifications.class)
	@ConditionalOnProperty(name = "locksmith.wait.strategy", havingValue = "pubsub", matchIfMissing = true)
	RedlockReleaseNotifications redlockReleaseNotifications(RedlockServers servers, RedisLockKeys keys) {
		return new RedlockReleaseNotifications(servers.connectionFactories(), keys);
	}

	/** A whole acquisition (grants, fencing write-back, release when refused) fits in the store timeout. */
	private static Duration maxNodeTimeout(LocksmithProperties properties) {
		Duration quarter = properties.getRedisTimeout().dividedBy(4);
		return (quarter.toMillis() < 1) ? Duration.ofMillis(1) : quarter;
	}

}
