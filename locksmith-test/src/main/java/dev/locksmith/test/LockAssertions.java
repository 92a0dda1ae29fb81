package dev.locksmith.test;

import dev.locksmith.core.LockService;

/**
 * Entry point of AssertJ assertions on locks: {@code assertThat(lockService).holds("account:42")}.
 *
 * @since 0.1.0
 */
public final class LockAssertions {

	private LockAssertions() {
	}

	/** Assertions on the locks of {@code lockService}. */
	public static LockServiceAssert assertThat(LockService lockService) {
		return new LockServiceAssert(lockService);
	}

}
