package dev.locksmith.autoconfigure;

import java.time.Duration;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockBackend;
import dev.locksmith.core.LockEventListener;
import dev.locksmith.core.LockLostEvent;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.core.internal.TimeBoundedLockAdministration;
import dev.locksmith.core.observation.LockAcquisitionObservationConvention;
import dev.locksmith.core.observation.LockHoldObservationConvention;
import dev.locksmith.redis.RedisFencedValues;
import dev.locksmith.redis.RedisLockAdministration;
import dev.locksmith.redis.RedisLockBackend;
import dev.locksmith.redis.RedisLockKeys;
import dev.locksmith.redis.RedisReleaseNotifications;

/**
 * Auto-configures a {@link LockService} on the store that {@code locksmith.store} selects: the
 * application's {@link RedisConnectionFactory} by default (the one marked {@link LockConnectionFactory},
 * else its single or primary one); when no store can be set up, the startup fails and says why. Other
 * modules provide other stores' {@link LockBackend} in a configuration marked
 * {@link ConditionalOnLockStore} that runs before this one.
 * The service is observed through the application's {@link ObservationRegistry} when there is one, named
 * and tagged by the application's {@link LockAcquisitionObservationConvention} and
 * {@link LockHoldObservationConvention} when it has them.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnBooleanProperty(name = "locksmith.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LocksmithProperties.class)
public final class LocksmithAutoConfiguration {

	/**
	 * Defined whether or not a store could be set up: without one, it stops the startup saying why,
	 * also under lazy initialization, which would otherwise defer the failure to the first locked call.
	 */
	@Bean
	@Lazy(false)
	@ConditionalOnMissingBean(LockService.class)
	DefaultLockService lockService(ObjectProvider<LockBackend> backend,
			ObjectProvider<ReleaseNotifications> releaseNotifications, LocksmithProperties properties,
			ApplicationEventPublisher eventPublisher, ObjectProvider<LockEventListener> listeners,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquisitionObservationConvention> acquisitionConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		LockBackend store = backend.getIfAvailable();
		if (store == null) {
			throw NoLockStoreException.forStore(properties.getStore());
		}
		DefaultLockService.Builder builder = DefaultLockService.builder(store)
			.storeTimeout(properties.getRedisTimeout())
			.recheckInterval(properties.getWait().getRecheckInterval())
			.releaseNotifications(releaseNotifications.getIfAvailable())
			.renewal(properties.getRenewal().isEnabled())
			.driftAllowance(properties.getDriftAllowance())
			.observationRegistry(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP))
			.acquisitionObservationConvention(acquisitionConvention.getIfAvailable())
			.holdObservationConvention(holdConvention.getIfAvailable())
			.options(LockOptions.ofTtl(properties.getDefaultTtl()).withWaitTime(properties.getDefaultWaitTime()));
		if (properties.getInstanceId() != null) {
			builder.instanceId(properties.getInstanceId());
		}
		builder.listener(new LockEventListener() {

			@Override
			public void leaseLost(LockLostEvent event) {
				eventPublisher.publishEvent(event);
			}

		});
		listeners.orderedStream().forEach(builder::listener);
		return builder.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnLockStore(LocksmithProperties.Store.REDIS)
	@ConditionalOnClass(RedisConnectionFactory.class)
	@ConditionalOnBean(RedisConnectionFactory.class)
	static class RedisStoreConfiguration {

		private final LockConnectionFactoryChoice connectionFactory;

		RedisStoreConfiguration(@LockConnectionFactory ObjectProvider<RedisConnectionFactory> marked,
				ObjectProvider<RedisConnectionFactory> connectionFactories, ListableBeanFactory beanFactory) {
			this.connectionFactory = new LockConnectionFactoryChoice(marked, connectionFactories, beanFactory);
		}

		@Bean
		@ConditionalOnMissingBean
		RedisLockKeys redisLockKeys(LocksmithProperties properties) {
			return new RedisLockKeys(properties.getKeyPrefix());
		}

		@Bean
		@ConditionalOnMissingBean(LockBackend.class)
		RedisLockBackend lockBackend(RedisLockKeys keys, LocksmithProperties properties) {
			return new RedisLockBackend(this.connectionFactory.connectionFactory(), keys,
					claimLease(properties.getWait()));
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
			return new TimeBoundedLockAdministration(new RedisLockAdministration(
					this.connectionFactory.connectionFactory(), keys, claimLease(properties.getWait())),
					properties.getRedisTimeout());
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
			return (wait.getClaimLease().compareTo(twoRechecks) < 0) ? twoRechecks : wait.getClaimLease();
		}

	}

}
