package dev.locksmith.actuate;

import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

import dev.locksmith.actuate.LocksEndpoint.ForcedRelease;
import dev.locksmith.actuate.LocksEndpoint.LocksDescriptor;

/**
 * Lets Jackson write the {@code locks} endpoint's answers in a native image. Spring Boot registers each
 * operation's declared return type, and the read operation declares the sealed {@link LocksDescriptor}:
 * its records, which Boot does not reach, are registered here with everything they hold.
 */
class LocksEndpointRuntimeHints implements RuntimeHintsRegistrar {

	private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		this.bindings.registerReflectionHints(hints.reflection(),
				Stream.concat(Stream.of(LocksDescriptor.class.getPermittedSubclasses()), Stream.of(ForcedRelease.class))
					.toArray(Class<?>[]::new));
	}

}
