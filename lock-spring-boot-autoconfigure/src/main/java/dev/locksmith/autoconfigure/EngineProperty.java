package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Hands one property's value to the engine, which validates it (the properties are plain data), and
 * reports a value the engine rejects as Spring Boot reports an invalid property: its name, its value
 * and where it was set, with the engine's reason.
 */
final class EngineProperty {

	/** The longest duration the engine counts: {@code Long.MAX_VALUE} nanoseconds, about 292 years. */
	static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

	private EngineProperty() {
	}

	/** The result of {@code apply}, which hands {@code value}, bound from {@code property}, to the engine. */
	static <T> T apply(String property, @Nullable Object value, Supplier<T> apply) {
		if (value instanceof Duration duration && duration.compareTo(LONGEST) > 0) {
			throw new InvalidConfigurationPropertyValueException(property, value,
					"must be at most " + LONGEST.toDays() + "d (" + LONGEST + ")");
		}
		try {
			return apply.get();
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(property, value, ex.getMessage());
		}
	}

}
