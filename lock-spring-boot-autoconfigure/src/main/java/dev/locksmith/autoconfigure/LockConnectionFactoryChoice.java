package dev.locksmith.autoconfigure;

import java.util.Arrays;
import java.util.List;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.function.SingletonSupplier;

/**
 * The {@link RedisConnectionFactory} that the Redis store locks on: the one marked
 * {@link LockConnectionFactory}, else the application's single or primary one; with several and none
 * chosen, a {@link NoLockStoreException} that names them.
 */
final class LockConnectionFactoryChoice {

	private final SingletonSupplier<RedisConnectionFactory> chosen;

	LockConnectionFactoryChoice(ObjectProvider<RedisConnectionFactory> marked,
			ObjectProvider<RedisConnectionFactory> connectionFactories, ListableBeanFactory beanFactory) {
		this.chosen = SingletonSupplier.of(() -> choose(marked, connectionFactories, beanFactory));
	}

	RedisConnectionFactory connectionFactory() {
		return this.chosen.obtain();
	}

	private static RedisConnectionFactory choose(ObjectProvider<RedisConnectionFactory> marked,
			ObjectProvider<RedisConnectionFactory> connectionFactories, ListableBeanFactory beanFactory) {
		try {
			RedisConnectionFactory markedFactory = marked.getIfAvailable();
			if (markedFactory != null) {
				return markedFactory;
			}
		}
		catch (NoUniqueBeanDefinitionException ex) {
			throw NoLockStoreException.forSeveralChosenConnectionFactories(
					(ex.getBeanNamesFound() != null) ? ex.getBeanNamesFound() : List.of());
		}
		RedisConnectionFactory unique = connectionFactories.getIfUnique();
		if (unique == null) {
			throw NoLockStoreException.forUnchosenConnectionFactories(
					Arrays.asList(beanFactory.getBeanNamesForType(RedisConnectionFactory.class)));
		}
		return unique;
	}

}
