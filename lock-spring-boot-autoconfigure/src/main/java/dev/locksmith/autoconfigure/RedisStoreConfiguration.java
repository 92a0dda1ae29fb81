package dev.locksmith.autoconfigure;

import java.time.Duration;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockBackend;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.core.internal.TimeBoundedLockAdministration;
import dev.locksmith.redis.RedisFencedValues;
import dev.locksmith.redis.RedisLockAdministration;
import dev.locksmith.redis.RedisLockBackend;
import dev.locksmith.redis.RedisLockKeys;
import dev.locksmith.redis.RedisReleaseNotifications;

/**
 * The Redis store, {@code locksmith.store=redis} (the default): locks in the application's Redis, through
 * the {@link RedisConnectionFactory} marked {@link LockConnectionFactory}, else its single or primary one.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(LockStoreCondition.class)
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnBean(RedisConnectionFactory.class)
@Import(RedisLockKeysConfiguration.class)
class RedisStoreConfiguration {

	private final LockConnectionFactoryChoice connectionFactory;

	RedisStoreConfiguration(@LockConnectionFactory ObjectProvider<RedisConnectionFactory> marked,
			ObjectProvider<RedisConnectionFactory> connectionFactories, ListableBeanFactory beanFactory) {
		this.connectionFactory = new LockConnectionFactoryChoice(marked, connectionFactories, beanFactory);
	}

	@Bean
	@ConditionalOnMissingBean(LockBackend.class)
	RedisLockBackend lockBackend(RedisLockKeys keys, LocksmithProperties properties) {
		return new RedisLockBackend(this.connectionFactory.connectionFactory(), keys, claimLease(properties.getWait()));
	}

	@Bean
	LockStoreWarmUp redisLockStoreWarmUp(ObjectProvider<RedisLockBackend> backend) {
		return new LockStoreWarmUp(() -> backend.ifAvailable(RedisLockBackend::warmUp));
	}

	@Bean
	@ConditionalOnMissingBean
	FencedValues fencedValues() {
		return new RedisFencedValues(this.connectionFactory.connectionFactory());
	}

	@Bean
	@ConditionalOnMissingBean
	LockAdministration lockAdministration(RedisLockKeys keys, LocksmithProperties properties) {
		LockAdministration administration = new RedisLockAdministration(this.connectionFactory.connectionFactory(),
				keys, claimLease(properties.getWait()));
		return EngineProperty.apply("locksmith.redis-timeout", properties.getRedisTimeout(),
				() -> new TimeBoundedLockAdministration(administration, properties.getRedisTimeout()));
	}

	@Bean
	@ConditionalOnMissingBean(ReleaseNotifications.class)
	@ConditionalOnProperty(name = "locksmith.wait.strategy", havingValue = "pubsub", matchIfMissing = true)
	RedisReleaseNotifications redisReleaseNotifications(RedisLockKeys keys) {
		return new RedisReleaseNotifications(this.connectionFactory.connectionFactory(), keys);
	}

	/**
	 * A waiter handed a lock whose notification was lost (or that polls) learns of it only when it
	 * re-checks: it gets two re-checks' time, so its claim never lapses before it looks.
	 */
	private static Duration claimLease(LocksmithProperties.Wait wait) {
		Duration twoRechecks = wait.getRecheckInterval().multipliedBy(2);
		return EngineProperty.apply("locksmith.wait.claim-lease", wait.getClaimLease(),
				() -> (wait.getClaimLease().compareTo(twoRechecks) < 0) ? twoRechecks : wait.getClaimLease());
	}

}
