package dev.locksmith.adapters.shedlock;

import java.time.Duration;
import java.util.Optional;

import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

import dev.locksmith.core.LockHandle;

/**
 * A lock that {@link LocksmithLockProvider} granted: unlocking closes the handle, extending extends its
 * lease. ShedLock's base class makes a lock unusable once it was unlocked or extended.
 */
final class LocksmithSimpleLock extends AbstractSimpleLock {

	private final LockHandle handle;

	private final boolean extension;

	/**
	 * @param extension whether {@code configuration} came from an extension, whose {@code lockAtLeastFor}
	 * the handle's minimum hold, set at the grant, does not know
	 */
	LocksmithSimpleLock(LockHandle handle, LockConfiguration configuration, boolean extension) {
		super(configuration);
		this.handle = handle;
		this.extension = extension;
	}

	@Override
	protected void doUnlock() {
		Duration holdLeft = Duration.between(ClockProvider.now(), this.lockConfiguration.getLockAtLeastUntil());
		if (this.extension && holdLeft.toMillis() >= 1 && this.handle.extend(holdLeft)) {
			// the lease now ends with the extension's lockAtLeastFor; the handle lapses with it
			return;
		}
		this.handle.close();
	}

	@Override
	protected Optional<SimpleLock> doExtend(LockConfiguration newConfiguration) {
		if (!this.handle.extend(newConfiguration.getLockAtMostFor())) {
			this.handle.close();
			return Optional.empty();
		}
		return Optional.of(new LocksmithSimpleLock(this.handle, newConfiguration, true));
	}

}
