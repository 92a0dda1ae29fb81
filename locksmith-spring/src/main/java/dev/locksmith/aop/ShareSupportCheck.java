package dev.locksmith.aop;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockStore;

/**
 * Refuses at startup a read lock or permits that the application's store cannot grant, asking the
 * store through {@link LockStore#grantsShares()}, so that no call finds out on its first run.
 */
final class ShareSupportCheck {

	private final @Nullable LockStore store;

	/** @param store the store that keeps the locks, or {@code null} when unknown: the first call refuses then */
	ShareSupportCheck(@Nullable LockStore store) {
		this.store = store;
	}

	/** @throws LockDeclarationException when {@code definition} asks for shares that the store cannot grant */
	void check(String declaration, LockDefinition definition) {
		LockOptions options = definition.options();
		if (options.exclusive() || this.store == null || this.store.grantsShares()) {
			return;
		}
		String asked = (options.mode() == LockMode.READ) ? "mode = READ" : "permits = " + options.permits();
		String storeName = this.store.getClass().getSimpleName();
		throw new LockDeclarationException(declaration,
				asked + " needs a lock store that grants shares, but the lock store " + storeName
						+ " holds exclusive locks only",
				"Use mode = WRITE with permits = 1 on " + definition.method() + ", or keep its locks in a store "
						+ "that grants read locks and permits: locksmith.store=redis (standalone, Sentinel or Cluster).",
				null);
	}

}
