package dev.locksmith.autoconfigure;

import java.util.EnumMap;
import java.util.Map;

import dev.locksmith.autoconfigure.LocksmithProperties.Store;

/** Which configuration class sets up each {@link Store}, and which store each of them sets up. */
final class LockStoreConfigurations {

	private static final Map<Store, String> CONFIGURATIONS = new EnumMap<>(Map.of(Store.REDIS,
			RedisStoreConfiguration.class.getName(), Store.REDLOCK, RedlockStoreConfiguration.class.getName(),
			Store.IN_MEMORY, InMemoryStoreConfiguration.class.getName(), Store.JDBC,
			JdbcStoreConfiguration.class.getName()));

	private LockStoreConfigurations() {
	}

	/** Every store's configuration class, each guarded by {@link LockStoreCondition}. */
	static String[] all() {
		return CONFIGURATIONS.values().toArray(String[]::new);
	}

	/** The store that {@code configurationClassName} sets up. */
	static Store storeOf(String configurationClassName) {
		return CONFIGURATIONS.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().equals(configurationClassName))
			.map(Map.Entry::getKey)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("Not a lock store configuration: " + configurationClassName));
	}

}
