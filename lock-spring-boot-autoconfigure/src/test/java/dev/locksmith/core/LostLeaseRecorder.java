package dev.locksmith.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records the lost leases a service reports, for tests that wait for them. */
public final class LostLeaseRecorder implements LockEventListener {

	private final List<LockLostEvent> events = new CopyOnWriteArrayList<>();

	/** A recorder listening to {@code service}. */
	public static LostLeaseRecorder listeningTo(DefaultLockService service) {
		LostLeaseRecorder recorder = new LostLeaseRecorder();
		service.leases().listen(recorder);
		return recorder;
	}

	/** Tells {@code listener} about {@code service}'s events, for tests that build the service elsewhere. */
	public static void listen(DefaultLockService service, LockEventListener listener) {
		service.leases().listen(listener);
	}

	@Override
	public void leaseLost(LockLostEvent event) {
		this.events.add(event);
	}

	/** The lost leases reported so far, in order. */
	public List<LockLostEvent> events() {
		return this.events;
	}

}
