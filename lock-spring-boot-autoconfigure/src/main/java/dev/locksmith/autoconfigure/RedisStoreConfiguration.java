package dev.locksmith.autoconfigure;

import java.time.Duration;

import io.lettuce.core.cluster.ClusterClientOptions;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import io.lettuce.core.resource.ClientResources;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockStore;
import dev.locksmith.redis.RedisFencedValues;
import dev.locksmith.redis.RedisLockStore;

/**
 * The Redis store, {@code locksmith.store=redis} (the default): locks in the application's Redis, through
 * the {@link RedisConnectionFactory} marked {@link LockConnectionFactory}, else its single or primary one.
 * Spring Boot's own Lettuce connection factory, the one Locksmith then uses, refreshes its view of a Redis
 * Cluster unless the application chose how, and reconnects at least every
 * {@code locksmith.redis.max-reconnect-delay}.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(LockStoreCondition.class)
@ConditionalOnClass({ RedisConnectionFactory.class, RedisLockStore.class })
@ConditionalOnBean(RedisConnectionFactory.class)
class RedisStoreConfiguration {

	private final LockBeanChoice<RedisConnectionFactory> connectionFactory;

	RedisStoreConfiguration(@LockConnectionFactory ObjectProvider<RedisConnectionFactory> marked,
			ObjectProvider<RedisConnectionFactory> connectionFactories, ListableBeanFactory beanFactory) {
		this.connectionFactory = LockBeanChoice.of(RedisConnectionFactory.class, LockConnectionFactory.class, "redis",
				marked, connectionFactories, beanFactory);
	}

	/** The store, which the context starts and closes with the parts it made; one the application defines wins. */
	@Bean
	@ConditionalOnMissingBean(LockStore.class)
	RedisLockStore redisLockStore(LocksmithProperties properties) {
		RedisLockStore.Builder store = RedisLockStore.builder(this.connectionFactory.bean());
		EngineProperty.apply("locksmith.key-prefix", properties.getKeyPrefix(),
				() -> store.keyPrefix(properties.getKeyPrefix()));
		int cohortPasses = properties.getWait().getCohortPasses();
		EngineProperty.apply("locksmith.wait.cohort-passes", cohortPasses, () -> store.cohortPasses(cohortPasses));
		return store.claimLease(ClaimLeases.of(properties.getWait()))
			.shardedPubSub(properties.getRedis().isShardedPubSub())
			.build();
	}

	@Bean
	@ConditionalOnMissingBean
	FencedValues fencedValues() {
		return new RedisFencedValues(this.connectionFactory.bean());
	}

	/** Refresh for Spring Boot's Lettuce connection factory; one the application built keeps its own options. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ LettuceClientOptionsBuilderCustomizer.class, ClusterClientOptions.class })
	static class ClusterTopologyRefreshConfiguration {

		@Bean
		ClusterTopologyRefreshCustomizer locksmithClusterTopologyRefreshCustomizer(Environment environment) {
			return new ClusterTopologyRefreshCustomizer(Binder.get(environment));
		}

	}

	/**
	 * The reconnect delay of the ClientResources that Spring Boot builds for its Lettuce connection
	 * factories; ClientResources the application built keep theirs.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ ClientResourcesBuilderCustomizer.class, ClientResources.class })
	static class ReconnectDelayConfiguration {

		@Bean
		ReconnectDelayCustomizer locksmithReconnectDelayCustomizer(LocksmithProperties properties) {
			return EngineProperty.apply(ReconnectDelayCustomizer.PROPERTY,
					properties.getRedis().getMaxReconnectDelay(),
					() -> new ReconnectDelayCustomizer(properties.getRedis().getMaxReconnectDelay()));
		}

	}

}
