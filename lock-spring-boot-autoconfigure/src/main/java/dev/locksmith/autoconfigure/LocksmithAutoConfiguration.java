package dev.locksmith.autoconfigure;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.type.AnnotationMetadata;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockEventListener;
import dev.locksmith.core.LockLostEvent;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.observation.LockAcquisitionObservationConvention;
import dev.locksmith.core.observation.LockHoldObservationConvention;

/**
 * Auto-configures a {@link LockService} on the store that {@code locksmith.store} selects, as Spring
 * Boot's cache auto-configuration chooses a cache: one configuration per store, each guarded by the store
 * property and the classes it needs. The default, {@code redis}, locks in the application's Redis (the
 * connection factory marked {@link LockConnectionFactory}, else its single or primary one);
 * {@code redlock} in a majority of the servers of {@code locksmith.redlock.nodes}; {@code in-memory}
 * within this JVM, for tests, with {@code dev.locksmith:locksmith-test}. When no store can be set up, the
 * startup fails and says why.
 * The service is observed through the application's {@link ObservationRegistry} when there is one, named
 * and tagged by the application's {@link LockAcquisitionObservationConvention} and
 * {@link LockHoldObservationConvention} when it has them.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "locksmith.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LocksmithProperties.class)
@Import(LocksmithAutoConfiguration.LockStoreConfigurationImportSelector.class)
public final class LocksmithAutoConfiguration {

	/**
	 * Defined whether or not a store could be set up: without one, it stops the startup saying why,
	 * also under lazy initialization, which would otherwise defer the failure to the first locked call.
	 */
	@Bean
	@Lazy(false)
	@ConditionalOnMissingBean(LockService.class)
	DefaultLockService lockService(ObjectProvider<LockStore> lockStore, LocksmithProperties properties,
			ApplicationEventPublisher eventPublisher, ObjectProvider<LockEventListener> listeners,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquisitionObservationConvention> acquisitionConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		LockStore store = lockStore.getIfAvailable();
		if (store == null) {
			throw NoLockStoreException.forStore(properties.getStore());
		}
		DefaultLockService.Builder builder = DefaultLockService.builder(store)
			.releaseNotifications(properties.getWait().getStrategy() == LocksmithProperties.WaitStrategy.PUBSUB)
			.renewal(properties.getRenewal().isEnabled())
			.observationRegistry(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP))
			.acquisitionObservationConvention(acquisitionConvention.getIfAvailable())
			.holdObservationConvention(holdConvention.getIfAvailable());
		EngineProperty.apply("locksmith.redis-timeout", properties.getRedisTimeout(),
				() -> builder.storeTimeout(properties.getRedisTimeout()));
		EngineProperty.apply("locksmith.wait.recheck-interval", properties.getWait().getRecheckInterval(),
				() -> builder.recheckInterval(properties.getWait().getRecheckInterval()));
		EngineProperty.apply("locksmith.drift-allowance", properties.getDriftAllowance(),
				() -> builder.driftAllowance(properties.getDriftAllowance()));
		LockOptions options = EngineProperty.apply("locksmith.default-ttl", properties.getDefaultTtl(),
				() -> LockOptions.ofTtl(properties.getDefaultTtl()));
		builder.options(EngineProperty.apply("locksmith.default-wait-time", properties.getDefaultWaitTime(),
				() -> options.withWaitTime(properties.getDefaultWaitTime())));
		String instanceId = properties.getInstanceId();
		if (instanceId != null) {
			EngineProperty.apply("locksmith.instance-id", instanceId, () -> builder.instanceId(instanceId));
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

	/** What operators see and do in the store, for the Actuator endpoints, each call bounded as the engine's. */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LockStore.class)
	LockAdministration lockAdministration(LockStore store, LocksmithProperties properties) {
		return EngineProperty.apply("locksmith.redis-timeout", properties.getRedisTimeout(),
				() -> LockAdministration.of(store, properties.getRedisTimeout()));
	}

	/** Imports every store's configuration; {@link LockStoreCondition} lets the selected one apply. */
	static class LockStoreConfigurationImportSelector implements ImportSelector {

		@Override
		public String[] selectImports(AnnotationMetadata importingClassMetadata) {
			return LockStoreConfigurations.all();
		}

	}

}
