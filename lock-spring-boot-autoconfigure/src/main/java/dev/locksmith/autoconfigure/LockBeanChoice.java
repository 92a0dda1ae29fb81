package dev.locksmith.autoconfigure;

import java.lang.annotation.Annotation;
import java.util.Arrays;
import java.util.List;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.function.SingletonSupplier;

/**
 * The bean a store locks on, such as the Redis store's {@code RedisConnectionFactory} or the JDBC store's
 * {@code DataSource}: the one marked with the store's qualifier ({@link LockConnectionFactory},
 * {@link LockDataSource}), else the application's single or primary one; with several and none chosen, a
 * {@link NoLockStoreException} that names them.
 */
final class LockBeanChoice<T> {

	private final SingletonSupplier<T> chosen;

	private LockBeanChoice(Class<T> type, Class<? extends Annotation> qualifier, String store,
			ObjectProvider<T> marked, ObjectProvider<T> candidates, ListableBeanFactory beanFactory) {
		this.chosen = SingletonSupplier.of(() -> choose(type, qualifier, store, marked, candidates, beanFactory));
	}

	/**
	 * The choice among {@code candidates} of {@code type}, {@code marked} being those with {@code qualifier},
	 * for the store named {@code store} in {@code locksmith.store}.
	 */
	static <T> LockBeanChoice<T> of(Class<T> type, Class<? extends Annotation> qualifier, String store,
			ObjectProvider<T> marked, ObjectProvider<T> candidates, ListableBeanFactory beanFactory) {
		return new LockBeanChoice<>(type, qualifier, store, marked, candidates, beanFactory);
	}

	T bean() {
		return this.chosen.obtain();
	}

	private static <T> T choose(Class<T> type, Class<? extends Annotation> qualifier, String store,
			ObjectProvider<T> marked, ObjectProvider<T> candidates, ListableBeanFactory beanFactory) {
		try {
			T markedBean = marked.getIfAvailable();
			if (markedBean != null) {
				return markedBean;
			}
		}
		catch (NoUniqueBeanDefinitionException ex) {
			throw NoLockStoreException.forSeveralChosenBeans(type, qualifier, store,
					(ex.getBeanNamesFound() != null) ? ex.getBeanNamesFound() : List.of());
		}
		T unique = candidates.getIfUnique();
		if (unique == null) {
			throw NoLockStoreException.forUnchosenBeans(type, qualifier, store,
					Arrays.asList(beanFactory.getBeanNamesForType(type)));
		}
		return unique;
	}

}
