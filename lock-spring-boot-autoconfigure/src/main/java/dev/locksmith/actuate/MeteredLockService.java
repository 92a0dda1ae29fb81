package dev.locksmith.actuate;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.internal.KeyMasking;

/**
 * Decorator that measures a {@link LockService}: the {@code locksmith.acquire} timer by lock name and
 * outcome ({@code acquired}, {@code busy}, {@code unavailable}, {@code interrupted}) and the
 * {@code locksmith.held} long-task timer by lock name. The name is the part of the key before the
 * first {@code ':'}; keys themselves are never tags, their number is unbounded.
 *
 * @since 0.1.0
 */
public final class MeteredLockService implements LockService {

	private final LockService delegate;

	private final MeterRegistry registry;

	public MeteredLockService(LockService delegate, MeterRegistry registry) {
		this.delegate = delegate;
		this.registry = registry;
	}

	@Override
	public Optional<LockHandle> tryAcquire(String key, LockOptions options) throws InterruptedException {
		return measured(List.of(key), () -> this.delegate.tryAcquire(key, options));
	}

	@Override
	public Optional<LockHandle> tryAcquireAll(Collection<String> keys, LockOptions options)
			throws InterruptedException {
		return measured(keys, () -> this.delegate.tryAcquireAll(keys, options));
	}

	@Override
	public boolean isLocked(String key) {
		return this.delegate.isLocked(key);
	}

	@Override
	public List<LockInfo> heldLocks() {
		return this.delegate.heldLocks();
	}

	@Override
	public LockOptions options() {
		return this.delegate.options();
	}

	private Optional<LockHandle> measured(Collection<String> keys, Acquisition acquisition)
			throws InterruptedException {
		String name = (keys == null || keys.isEmpty() || keys.iterator().next() == null) ? "unknown"
				: KeyMasking.nameOf(keys.iterator().next());
		Timer.Sample sample = Timer.start(this.registry);
		String outcome = "unavailable";
		try {
			Optional<LockHandle> handle = acquisition.run();
			outcome = handle.isPresent() ? "acquired" : "busy";
			return handle.map((held) -> new MeteredLockHandle(held,
					LongTaskTimer.builder("locksmith.held").tag("name", name).register(this.registry).start()));
		}
		catch (InterruptedException ex) {
			outcome = "interrupted";
			throw ex;
		}
		catch (LockUnavailableException ex) {
			outcome = "unavailable";
			throw ex;
		}
		finally {
			sample.stop(Timer.builder("locksmith.acquire")
				.description("Time to acquire a lock, waiting included")
				.tag("name", name)
				.tag("outcome", outcome)
				.register(this.registry));
		}
	}

	@FunctionalInterface
	private interface Acquisition {

		Optional<LockHandle> run() throws InterruptedException;

	}

}
