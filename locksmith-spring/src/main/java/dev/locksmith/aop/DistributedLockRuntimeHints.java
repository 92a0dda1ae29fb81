package dev.locksmith.aop;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeHint;
import org.springframework.aot.hint.TypeReference;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.annotation.OnBusy;

/**
 * Lets the aspect read {@code @DistributedLock} in a native image: the attributes it invokes through
 * Spring's merged annotations, and the enum constants of its attributes, as Spring's own
 * {@code TransactionRuntimeHints} registers those of {@code @Transactional}.
 */
class DistributedLockRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection()
			.registerType(DistributedLock.class, MemberCategory.INVOKE_PUBLIC_METHODS)
			.registerTypes(TypeReference.listOf(OnBusy.class, LockMode.class),
					TypeHint.builtWith(MemberCategory.ACCESS_DECLARED_FIELDS));
	}

}
