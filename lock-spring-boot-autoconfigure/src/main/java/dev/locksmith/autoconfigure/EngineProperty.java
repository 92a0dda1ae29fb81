package dev.locksmith.autoconfigure;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Hands one property's value to the engine, which validates it (the properties are plain data), and
 * reports a value the engine rejects as Spring Boot reports an invalid property: its name, its value
 * and where it was set, with the engine's reason.
 */
final class EngineProperty {

	private EngineProperty() {
	}

	/** The result of {@code apply}, which hands {@code value}, bound from {@code property}, to the engine. */
	static <T> T apply(String property, @Nullable Object value, Supplier<T> apply) {
		try {
			return apply.get();
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(property, value, ex.getMessage());
		}
	}

}
