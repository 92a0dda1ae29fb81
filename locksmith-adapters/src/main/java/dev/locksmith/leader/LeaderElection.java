package dev.locksmith.leader;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.OutageLog;

/**
 * Keeps one leader of a role in the fleet: every instance campaigns for the renewed lock
 * {@code leader:<role>}, waiting in its fair queue, and the one that holds it leads.
 * <p>
 * The leader steps down on its own while a quarter of its lease is still left without a renewal (with
 * renewal every third of the lease, after two renewals in a row failed), so it has stopped leading
 * before the lease can end in Redis and another instance be granted the lock. {@link #isLeader()} says
 * so at once; the {@link LeaderRevokedEvent} follows at the next check, every sixteenth of the lease. A
 * process frozen longer than that margin (a long GC pause, {@code SIGSTOP}) cannot notice in time: fence
 * the leader's writes with the token of the {@link LeaderGrantedEvent}.
 *
 * @since 0.1.0
 */
public final class LeaderElection {

	private static final Duration RETRY_INTERVAL = Duration.ofSeconds(1);

	/** The longest lease the engine counts: {@code Long.MAX_VALUE} nanoseconds, 106751 days. */
	private static final Duration LONGEST_TTL = Duration.ofNanos(Long.MAX_VALUE);

	private final String role;

	private final LockService locks;

	private final LockOptions options;

	private final Duration margin;

	private final ApplicationEventPublisher events;

	private final OutageLog outages = new OutageLog(System.getLogger(LeaderElection.class.getName()),
			"Campaigning again");

	private volatile @Nullable LockHandle leadership;

	private @Nullable Thread campaign;

	/**
	 * An election for {@code role} on a lease of {@code ttl}, not started yet.
	 * @param events where the grant and revoke events go, such as the application context
	 */
	public LeaderElection(String role, LockService locks, Duration ttl, ApplicationEventPublisher events) {
		if (role.isBlank()) {
			throw new IllegalArgumentException("role must not be blank");
		}
		if (ttl.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new IllegalArgumentException("ttl must be at least 1s, was " + ttl);
		}
		if (ttl.compareTo(LONGEST_TTL) > 0) {
			throw new IllegalArgumentException("ttl must be at most " + LONGEST_TTL.toDays() + "d, was " + ttl);
		}
		this.role = role;
		this.locks = locks;
		this.options = LockOptions.ofTtl(ttl).withWaitTime(ttl).withName("leader");
		this.margin = ttl.dividedBy(4);
		this.events = events;
	}

	/** The role this election is for. */
	public String role() {
		return this.role;
	}

	/**
	 * The key of the lock whose holder leads the role: {@code leader:<role>}.
	 * @since 0.1.0
	 */
	public String lockKey() {
		return "leader:" + this.role;
	}

	/** Whether this instance leads the role now, with more than the margin of its lease left. */
	public boolean isLeader() {
		return fencingToken().isPresent();
	}

	/** The fencing token of the current leadership, or empty when this instance does not lead. */
	public OptionalLong fencingToken() {
		return leadership().stream().mapToLong(Leadership::fencingToken).findFirst();
	}

	/**
	 * This instance's current leadership of the role, or empty when it does not lead.
	 * @since 0.1.0
	 */
	public Optional<Leadership> leadership() {
		LockHandle handle = this.leadership;
		return (handle != null && leads(handle))
				? Optional.of(new Leadership(handle.fencingToken(), handle.acquiredAt())) : Optional.empty();
	}

	/** Starts campaigning on a thread of its own; does nothing when started already. */
	public synchronized void start() {
		if (this.campaign == null) {
			Thread thread = new Thread(this::campaign, "locksmith-leader-" + this.role);
			thread.setDaemon(true);
			this.campaign = thread;
			thread.start();
		}
	}

	/** Steps down if leading, releasing the lock, and stops campaigning. */
	public void stop() {
		Thread thread;
		synchronized (this) {
			thread = this.campaign;
			this.campaign = null;
		}
		if (thread != null) {
			thread.interrupt();
			try {
				thread.join(this.options.ttl().toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Whether the election was started and not stopped. */
	public synchronized boolean isRunning() {
		return this.campaign != null;
	}

	private void campaign() {
		try {
			while (!Thread.currentThread().isInterrupted()) {
				try {
					Optional<LockHandle> granted = this.locks.tryAcquire(lockKey(), this.options);
					this.outages.answered();
					if (granted.isPresent()) {
						lead(granted.get());
					}
				}
				catch (LockUnavailableException ex) {
					this.outages.failed(lockKey(), "Cannot campaign for the leadership of '" + this.role + "'; retrying every "
							+ RETRY_INTERVAL.toMillis() + "ms", ex);
					Thread.sleep(RETRY_INTERVAL.toMillis());
				}
			}
		}
		catch (InterruptedException ex) {
			// stopped
		}
	}

	/** Leads on {@code handle} from the grant until too little of its lease is left; then releases it. */
	private void lead(LockHandle handle) throws InterruptedException {
		try (handle) {
			if (!withFullLease(handle)) {
				return;
			}
			long token = handle.fencingToken();
			this.leadership = handle;
			this.events.publishEvent(new LeaderGrantedEvent(this.role, token));
			try {
				while (leads(handle)) {
					Thread.sleep(this.margin.dividedBy(4).toMillis());
				}
			}
			finally {
				this.leadership = null;
				this.events.publishEvent(new LeaderRevokedEvent(this.role, token));
			}
		}
	}

	/**
	 * Whether the leadership can start on {@code handle}: a lock that a release handed over comes under a
	 * claim lease shorter than the margin, so it is extended to the full lease first, before the grant,
	 * rather than counted as lost at the first check and granted again.
	 */
	private boolean withFullLease(LockHandle handle) {
		return leads(handle) || (handle.extend(this.options.ttl()) && leads(handle));
	}

	private boolean leads(LockHandle handle) {
		return handle.isHeld() && Duration.between(Instant.now(), handle.expiresAt()).compareTo(this.margin) > 0;
	}

	/**
	 * One leadership of this instance.
	 *
	 * @param fencingToken the token to send with the leader's writes, as {@link LeaderGrantedEvent} carries it
	 * @param since when the leadership was granted
	 * @since 0.1.0
	 */
	public record Leadership(long fencingToken, Instant since) {
	}

}
