package dev.locksmith.aop;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;

/**
 * Lets context-propagation's {@code ServiceLoader} find the engine's lock context accessor in a native
 * image, when context-propagation is there: the service file and the accessor's constructor. Named, not
 * referenced, as only the accessor may depend on the optional library.
 */
class LockContextRuntimeHints implements RuntimeHintsRegistrar {

	static final String SERVICE = "io.micrometer.context.ThreadLocalAccessor";

	static final String ACCESSOR = "dev.locksmith.core.LockContextAccessor";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		if (ClassUtils.isPresent(SERVICE, classLoader)) {
			hints.resources().registerPattern("META-INF/services/" + SERVICE);
			hints.reflection().registerType(TypeReference.of(ACCESSOR), MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		}
	}

}
