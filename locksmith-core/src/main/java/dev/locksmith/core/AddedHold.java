package dev.locksmith.core;

import java.util.concurrent.atomic.AtomicBoolean;

/** One further hold on a {@link DefaultLockHandle}, taken by {@link LockHandle#hold()}; closing it ends that hold only. */
final class AddedHold extends ForwardingLockHandle implements HolderAware {

	private final DefaultLockHandle lock;

	private final AtomicBoolean open = new AtomicBoolean(true);

	AddedHold(DefaultLockHandle lock) {
		super(lock);
		this.lock = lock;
	}

	@Override
	public void close() {
		if (this.open.compareAndSet(true, false)) {
			this.lock.dropHold();
		}
	}

	@Override
	public void describeHolder(String holder) {
		this.lock.describeHolder(holder);
	}

}
