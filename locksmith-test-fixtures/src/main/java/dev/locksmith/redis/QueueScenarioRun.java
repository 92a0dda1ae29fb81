package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import org.awaitility.core.ConditionTimeoutException;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.HandleOwnerTokens;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.OwnerEntries;
import dev.locksmith.redis.QueueScenario.Client;
import dev.locksmith.redis.QueueScenario.Ending;

import static org.awaitility.Awaitility.await;

/**
 * Runs one {@link QueueScenario} on a {@link ScenarioStore} (real {@code redis-server}s, or a store in
 * memory) with two engines, each client on a thread of its own, and checks the invariants of the wait
 * queue after every grant and release and every {@value #SAMPLE_MILLIS} ms in between, then once more at
 * the end. On several servers (Redlock) a key's holder is the owner a majority of them name, and the
 * script bounds are per server; the store's {@link ScenarioStore#calls() calls} are scripts on Redis:
 * <ul>
 * <li>no key held by two owners unless they share it (readers, or at most n holders of n permits): two
 * handles of one key that both say {@code isHeld()} while the store
 * names one of them (or, when it names no holder, says the key is held);</li>
 * <li>a waiter that can use its keys now (every key free, and no earlier waiter that can use it now
 * needs it) is granted within {@link #LIVENESS_BOUND};</li>
 * <li>the first waiter of a queue granted within the same bound once the owners it found holding the
 * key, and the parked waiters ahead of it, have left: no reader barges past a queued writer, and only
 * the cohort hand-over passes it, at most its bound in a row, to a waiter of the engine of the owner
 * releasing ({@link QueueHeadCheck}; the engines are two processes' of several clients each, with the
 * default bound);</li>
 * <li>scripts per lock operation bounded on average, and in every one-second window;</li>
 * <li>fencing tokens strictly increasing per key, across grants one after the other, and each key's
 * token the one its own counter issued;</li>
 * <li>no Locksmith key without a TTL;</li>
 * <li>a released lock is gone once its minimum hold has passed, and an abandoned one once its lease has
 * (on a store that names holders);</li>
 * <li>no wait queue left at the end but entries whose deadline has passed.</li>
 * </ul>
 */
final class QueueScenarioRun {

	/** How often the invariants are checked between events. */
	static final int SAMPLE_MILLIS = 25;

	/** Longest a waiter sleeps before asking Redis again, for both engines. */
	static final Duration RECHECK_INTERVAL = Duration.ofMillis(300);

	/** How long a waiter that can use its keys now may stay without them: the re-check plus slack for load. */
	static final Duration LIVENESS_BOUND = RECHECK_INTERVAL.plusMillis(700);

	/** Average scripts per lock operation (acquire call, release, extend), renewals and re-checks included. */
	static final double SCRIPTS_PER_OPERATION = 20;

	/**
	 * Most scripts in any one-second window: ten clients re-checking every 300 ms, renewing 300 ms leases
	 * every 100 ms and handing on come to well under this; a loop of hand-ons runs thousands.
	 */
	static final long SCRIPTS_PER_SECOND = 250;

	/** How late after its end a released or abandoned lease may still be seen in Redis (sampling and load). */
	static final long LEASE_END_SLACK_MILLIS = 300;

	/** An engine's owner token, named after its client ({@code ;c3}, see {@link #clientOf}). */
	private static final Pattern OWNER_TOKEN = Pattern.compile("p\\d+:[0-9A-Za-z_.]{22}(?:-[0-9a-z]+-[0-9a-z]+)?;c\\d+");

	private final ScenarioStore store;

	private final QueueScenario scenario;

	private final long startNanos = System.nanoTime();

	private final List<String> violations = new CopyOnWriteArrayList<>();

	/** Counted down when a violation stops the scenario: clients stop their work and waits. */
	private final CountDownLatch stop = new CountDownLatch(1);

	private final AtomicLong operations = new AtomicLong();

	private final List<Grant> grants = new CopyOnWriteArrayList<>();

	private final Map<Integer, Waiting> waiting = new ConcurrentHashMap<>();

	private final Map<Integer, Long> eligibleSince = new HashMap<>();

	private final QueueHeadCheck heads = new QueueHeadCheck(LIVENESS_BOUND, this::waitsForSeveralKeys,
			RedisLockBackend.DEFAULT_COHORT_PASSES);

	private final List<long[]> scriptSamples = new ArrayList<>();

	private final List<String> log = new CopyOnWriteArrayList<>();

	private long maxScriptsInASecond;

	private QueueScenarioRun(ScenarioStore store, QueueScenario scenario) {
		this.store = store;
		this.scenario = scenario;
	}

	/** Runs {@code scenario} on an emptied {@code store} and returns what it found. */
	static Outcome run(ScenarioStore store, QueueScenario scenario) throws InterruptedException {
		store.flush();
		try (LockEngines engines = store.engines(QueueScenario.ENGINES, RECHECK_INTERVAL)) {
			store.resetStats();
			return new QueueScenarioRun(store, scenario).execute(engines);
		}
	}

	/** What a run found: the broken invariants (empty when none) and its figures. */
	record Outcome(List<String> violations, long operations, long scripts, long maxScriptsInASecond, long millis,
			List<String> log, String callsName) {

		boolean failed() {
			return !this.violations.isEmpty();
		}

		/** The invariant broken first, such as {@code "liveness"}: a shrunk scenario must break the same one. */
		String firstKind() {
			return failed() ? this.violations.get(0).substring(0, this.violations.get(0).indexOf(':')) : "";
		}

		String figures() {
			return String.format("%d lock operations, %d %s (%.1f per operation), at most %d in one second, %d ms",
					this.operations, this.scripts, this.callsName,
					(this.operations == 0) ? 0.0 : (double) this.scripts / this.operations, this.maxScriptsInASecond,
					this.millis);
		}

	}

	private Outcome execute(LockEngines engines) throws InterruptedException {
		List<Client> clients = this.scenario.clients();
		ScheduledExecutorService threads = Executors.newScheduledThreadPool(clients.size());
		ScheduledExecutorService interrupter = Executors.newSingleThreadScheduledExecutor();
		long scripts;
		try {
			List<Future<?>> running = new ArrayList<>();
			for (Client client : clients) {
				running.add(threads.schedule(() -> runClient(engines.engine(client.engine()), client, interrupter),
						Math.max(0, client.startMs() - elapsedMillis()), TimeUnit.MILLISECONDS));
			}
			await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(SAMPLE_MILLIS)).until(() -> {
				check();
				if (isStopped()) {
					running.forEach((client) -> client.cancel(true));
				}
				return running.stream().allMatch(Future::isDone);
			});
			for (Future<?> client : running) {
				if (!client.isCancelled()) {
					try {
						client.get();
					}
					catch (java.util.concurrent.ExecutionException ex) {
						violation("client", "a client failed: " + ex.getCause());
					}
				}
			}
			check();
			if (!isStopped()) {
				checkQueuesLeft();
			}
			scripts = scriptsSoFar();
		}
		finally {
			threads.shutdownNow();
			interrupter.shutdownNow();
			threads.awaitTermination(30, TimeUnit.SECONDS);
		}
		long ops = this.operations.get();
		double perOperation = SCRIPTS_PER_OPERATION * this.store.boundScale();
		if (!isStopped() && ops > 0 && (double) scripts / ops > perOperation) {
			violation("scripts", String.format("%d %s for %d lock operations, more than %.0f per operation",
					scripts, this.store.callsName(), ops, perOperation));
		}
		return new Outcome(this.violations.stream().map(this::named).toList(), ops, scripts, this.maxScriptsInASecond,
				elapsedMillis(), this.log.stream().map(this::named).toList(), this.store.callsName());
	}

	/**
	 * Whether the owner token belongs to a client of several keys: each client's locks are named after
	 * it, so its token ends with {@code ;c<id>} even while it waits and no grant names it yet.
	 */
	private boolean waitsForSeveralKeys(String ownerToken) {
		int name = ownerToken.lastIndexOf(";c");
		int id = (name >= 0) ? Integer.parseInt(ownerToken.substring(name + 2)) : -1;
		return this.scenario.clients().stream().anyMatch((client) -> client.id() == id && client.keys().size() > 1);
	}

	/**
	 * {@code text} with each owner token of a grant written as its client ({@code c3}), and the token of
	 * a waiter that was never granted shortened ({@code p1:8ffb4d..}).
	 */
	private String named(String text) {
		Map<String, String> clients = new HashMap<>();
		this.grants.forEach((grant) -> clients.put(grant.ownerToken.substring(grant.ownerToken.indexOf('/') + 1),
				"c" + grant.client.id()));
		return OWNER_TOKEN.matcher(text)
			.replaceAll((token) -> clients.getOrDefault(token.group(), token.group().substring(0, 9) + ".."));
	}

	private void runClient(DefaultLockService engine, Client client, ScheduledExecutorService interrupter) {
		try {
			LockOptions options = client.access()
				.applyTo(LockOptions.ofTtl(Duration.ofMillis(client.ttlMs()))
					.withWaitTime(Duration.ofMillis(client.waitMs()))
					.withRenew(client.renew())
					.withHoldAtLeast(Duration.ofMillis(client.holdAtLeastMs()))
					.withName("c" + client.id()));
			long callStart = System.nanoTime();
			Thread self = Thread.currentThread();
			Waiting me = new Waiting(client, callStart);
			if (client.waitMs() > 0) {
				this.waiting.put(client.id(), me);
			}
			if (client.ending() == Ending.ABANDON_WAIT) {
				interrupter.schedule(() -> me.abandon(self, this.waiting), client.abandonAfterMs(), TimeUnit.MILLISECONDS);
			}
			this.operations.incrementAndGet();
			Optional<LockHandle> granted;
			try {
				granted = engine.tryAcquireAll(client.keys(), options);
			}
			catch (InterruptedException ex) {
				this.waiting.remove(client.id());
				note(client, "abandoned its wait");
				return;
			}
			finally {
				me.returned(this.waiting);
			}
			if (granted.isEmpty()) {
				note(client, "gave up after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - callStart) + "ms");
				return;
			}
			Grant grant = granted(client, granted.get(), callStart);
			holdAndEnd(client, grant);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException ex) {
			if (!isStopped()) {
				violation("client", "c" + client.id() + " failed: " + ex);
			}
		}
	}

	private Grant granted(Client client, LockHandle handle, long callStart) {
		Grant grant = new Grant(client, handle, OwnerEntries.of(HandleOwnerTokens.owner(handle)), handle.fencingTokens(), callStart,
				System.nanoTime());
		note(client, "granted " + grant.tokens + " after "
				+ TimeUnit.NANOSECONDS.toMillis(grant.grantedAt - callStart) + "ms");
		synchronized (this) {
			for (Grant earlier : this.grants) {
				for (String key : client.keys()) {
					Long mine = grant.tokens.get(key);
					Long theirs = earlier.tokens.get(key);
					if (theirs == null) {
						continue;
					}
					if (mine.equals(theirs)) {
						violation("fencing", "c" + client.id() + " and c" + earlier.client.id()
								+ " were granted the same fencing token " + mine + " for '" + key + "'");
					}
					else if (earlier.endedBefore(callStart) && mine < theirs) {
						violation("fencing", "c" + client.id() + " was granted '" + key + "' with fencing token " + mine
								+ " after c" + earlier.client.id() + " had held it with " + theirs);
					}
				}
			}
			this.grants.add(grant);
		}
		check();
		return grant;
	}

	private void holdAndEnd(Client client, Grant grant) throws InterruptedException {
		LockHandle handle = grant.handle;
		switch (client.ending()) {
			case EXPIRE -> {
				pause(client.workMs());
				grant.abandonedAt = System.nanoTime();
				note(client, "left its lease to expire");
			}
			case EXTEND_THEN_RELEASE -> {
				pause(client.workMs() / 2);
				this.operations.incrementAndGet();
				boolean extended = handle.extend(Duration.ofMillis(client.extendTtlMs()));
				note(client, "extended to " + client.extendTtlMs() + "ms: " + extended);
				pause(client.workMs() - client.workMs() / 2);
				release(client, grant);
			}
			default -> {
				pause(client.workMs());
				release(client, grant);
			}
		}
		check();
	}

	/** Works for {@code millis}, or less when the scenario stops meanwhile. */
	private void pause(int millis) throws InterruptedException {
		this.stop.await(millis, TimeUnit.MILLISECONDS);
	}

	private boolean isStopped() {
		return this.stop.getCount() == 0;
	}

	private void release(Client client, Grant grant) {
		this.operations.incrementAndGet();
		grant.handle.close();
		grant.closedAt = System.nanoTime();
		note(client, "released");
	}

	/** Checks every invariant against one snapshot of the store. */
	private synchronized void check() {
		if (isStopped()) {
			return;
		}
		ScenarioStore.State snapshot = this.store.state();
		long now = System.nanoTime();
		sampleScripts(now);
		checkExclusion(snapshot);
		checkFencingCounters(snapshot);
		checkTtls(snapshot);
		checkLeasesEnded(snapshot, now);
		checkLiveness(snapshot, now);
		this.heads.check(snapshot, this.scenario.keys(), now, this::violation);
	}

	/**
	 * The handles that say {@code isHeld()} for one key, while the store gives the key to one of them,
	 * hold it together only as readers, or as at most as many permit holders as the permit count; and the
	 * store itself gives a key held by permits to no more holders than that.
	 */
	private void checkExclusion(ScenarioStore.State snapshot) {
		Map<String, List<Grant>> heldByKey = new HashMap<>();
		for (Grant grant : this.grants) {
			if (grant.handle.isHeld()) {
				grant.client.keys().forEach((key) -> heldByKey.computeIfAbsent(key, (k) -> new ArrayList<>()).add(grant));
			}
		}
		heldByKey.forEach((key, held) -> {
			List<String> holders = snapshot.holders(key);
			if (!canShare(held) && held.stream().anyMatch((grant) -> holders.contains(grant.ownerToken)
					|| holders.contains(ScenarioStore.State.UNNAMED))) {
				violation("mutual exclusion", "'" + key + "' held by " + held.stream()
					.map((grant) -> "c" + grant.client.id() + " " + grant.client.access() + " (token "
							+ grant.tokens.get(key) + ")")
					.toList() + " at once; "
					+ (holders.contains(ScenarioStore.State.UNNAMED) ? "the store holds it"
							: "the store names " + holders));
			}
		});
		for (String key : this.scenario.keys()) {
			String share = snapshot.holder(key);
			int permits = (share != null && share.startsWith("@permits=")) ? OwnerEntries.typed(share).permits() : 0;
			List<String> holders = snapshot.holders(key);
			if (permits > 0 && holders.size() > permits) {
				violation("mutual exclusion", "'" + key + "' is held with " + permits + " permits by "
						+ holders.size() + " holders in the store: " + holders);
			}
		}
	}

	/**
	 * An exclusive grant the store still names as a key's holder carries the token that key's own counter
	 * issued: nobody was granted the key since, so the counter still reads that token.
	 */
	private void checkFencingCounters(ScenarioStore.State snapshot) {
		for (Grant grant : this.grants) {
			if (!grant.client.access().exclusive()) {
				continue;
			}
			for (String key : grant.client.keys()) {
				Long counter = snapshot.fencingCounter(key);
				if (counter != null && grant.ownerToken.equals(snapshot.holder(key))
						&& !counter.equals(grant.tokens.get(key))) {
					violation("fencing", "c" + grant.client.id() + " holds '" + key + "' with fencing token "
							+ grant.tokens.get(key) + ", but that key's counter issued " + counter + " (tokens "
							+ grant.tokens + ")");
				}
			}
		}
	}

	/** Whether {@code held} may hold one key together: one grant, or readers only, or at most n of n permits. */
	private static boolean canShare(List<Grant> held) {
		QueueScenario.Access first = held.get(0).client.access();
		boolean sameShare = !first.exclusive() && held.stream().allMatch((grant) -> grant.client.access().equals(first));
		return held.size() == 1 || (sameShare && (first.permits() == 1 || held.size() <= first.permits()));
	}

	private void checkTtls(ScenarioStore.State snapshot) {
		snapshot.withoutTtl().forEach((found) -> violation("ttl", found));
	}

	private void checkLeasesEnded(ScenarioStore.State snapshot, long now) {
		if (!snapshot.namesHolders()) {
			return;
		}
		for (Grant grant : this.grants) {
			long endsAt;
			String what;
			if (grant.closedAt != 0) {
				endsAt = Math.max(grant.closedAt,
						grant.grantedAt + TimeUnit.MILLISECONDS.toNanos(grant.client.holdAtLeastMs()));
				what = "released" + ((grant.client.holdAtLeastMs() > 0)
						? " with a minimum hold of " + grant.client.holdAtLeastMs() + "ms" : "");
			}
			else if (grant.abandonedAt != 0) {
				endsAt = grant.grantedAt + TimeUnit.MILLISECONDS.toNanos(grant.client.ttlMs());
				what = "left to expire with a lease of " + grant.client.ttlMs() + "ms";
			}
			else {
				continue;
			}
			long lateMillis = TimeUnit.NANOSECONDS.toMillis(now - endsAt);
			if (lateMillis > LEASE_END_SLACK_MILLIS) {
				for (String key : grant.client.keys()) {
					if (snapshot.holders(key).contains(grant.ownerToken)) {
						violation("lease end", "c" + grant.client.id() + " " + what + ", but the store still gives it '"
								+ key + "' " + lateMillis + "ms after that ended (" + snapshot.lease(key) + ")");
					}
				}
			}
		}
	}

	/**
	 * A waiter can use its keys now when each is free in the store (absent, or handed to a waiter but
	 * nobody's grant) and no earlier waiter that can use its keys now needs it. Such a waiter must be
	 * granted within the bound. A key held by an owner the store does not name is a grant's while some
	 * grant of it may still hold it by what its client did (see {@link Grant#mayHoldAt}), else a claim.
	 */
	private void checkLiveness(ScenarioStore.State snapshot, long now) {
		Set<String> grantTokens = new HashSet<>();
		this.grants.forEach((grant) -> grantTokens.add(grant.ownerToken));
		Set<String> reserved = new HashSet<>();
		Set<Integer> eligible = new HashSet<>();
		this.waiting.values().stream().sorted((x, y) -> Long.compare(x.callStart, y.callStart)).forEach((waiter) -> {
			boolean free = waiter.client.keys().stream().allMatch((key) -> {
				List<String> holders = snapshot.holders(key);
				boolean grantHolds = holders.contains(ScenarioStore.State.UNNAMED) ? occupied(key, now)
						: holders.stream().anyMatch(grantTokens::contains);
				return !reserved.contains(key) && !grantHolds;
			});
			if (free) {
				reserved.addAll(waiter.client.keys());
				eligible.add(waiter.client.id());
			}
		});
		this.eligibleSince.keySet().retainAll(eligible);
		for (int id : eligible) {
			long since = this.eligibleSince.computeIfAbsent(id, (k) -> now);
			long forMillis = TimeUnit.NANOSECONDS.toMillis(now - since);
			if (forMillis > LIVENESS_BOUND.toMillis()) {
				Waiting waiter = this.waiting.get(id);
				violation("liveness", "c" + id + " waits for " + (waiter != null ? waiter.client.keys() : "?")
						+ ", all free and wanted by no earlier waiter that could take them, and has not been granted"
						+ " them for " + forMillis + "ms (bound " + LIVENESS_BOUND.toMillis() + "ms); the store: "
						+ snapshot.describe(waiter != null ? waiter.client.keys() : List.of()));
			}
		}
	}

	/** Whether some grant of {@code key} may still hold it at {@code now}, by what its client saw and did. */
	private boolean occupied(String key, long now) {
		return this.grants.stream().anyMatch((grant) -> grant.client.keys().contains(key) && grant.mayHoldAt(now));
	}

	private void sampleScripts(long now) {
		long scripts = scriptsSoFar();
		this.scriptSamples.add(new long[] { now, scripts });
		long windowStart = now - TimeUnit.SECONDS.toNanos(1);
		long[] first = this.scriptSamples.stream()
			.filter((sample) -> sample[0] >= windowStart)
			.findFirst()
			.orElseThrow();
		long inWindow = scripts - first[1];
		this.maxScriptsInASecond = Math.max(this.maxScriptsInASecond, inWindow);
		long perSecond = SCRIPTS_PER_SECOND * this.store.boundScale();
		if (inWindow > perSecond) {
			violation("scripts", inWindow + " " + this.store.callsName() + " within "
					+ TimeUnit.NANOSECONDS.toMillis(now - first[0]) + "ms, more than " + perSecond
					+ " in a second; the store: " + this.store.state().describe(this.scenario.clients().stream()
						.flatMap((c) -> c.keys().stream()).distinct().sorted().toList()));
		}
	}

	/** Store calls the clients made: scripts on Redis, but none of this run's own snapshots. */
	private long scriptsSoFar() {
		return this.store.calls();
	}

	/**
	 * After every client has finished, the wait queues empty out: await that no waiter is left in a queue
	 * with a deadline after the moment every client had finished. Entries whose deadline passed before
	 * then are allowed: hand-ons skip them and the queue expires by itself.
	 */
	private void checkQueuesLeft() throws InterruptedException {
		long finishedAt = this.store.state().clockMillis();
		List<String> live;
		try {
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(SAMPLE_MILLIS))
				.until(() -> this.store.state().queuedAfter(finishedAt).isEmpty());
			return;
		}
		catch (ConditionTimeoutException ex) {
			live = this.store.state().queuedAfter(finishedAt);
		}
		violation("queues", "10 s after every client finished, waiters still queued with a deadline after that: "
				+ live);
	}

	private void violation(String kind, String message) {
		String text = kind + ": at " + elapsedMillis() + "ms: " + message;
		this.violations.add(text);
		this.log.add(text);
		this.stop.countDown();
	}

	private void note(Client client, String event) {
		this.log.add(String.format("%5dms c%d %s", elapsedMillis(), client.id(), event));
	}

	private long elapsedMillis() {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.startNanos);
	}

	/** A client inside {@code tryAcquireAll} with a wait. */
	private static final class Waiting {

		final Client client;

		final long callStart;

		private boolean done;

		Waiting(Client client, long callStart) {
			this.client = client;
			this.callStart = callStart;
		}

		/** Stops counting the client as a waiter, then interrupts it, unless its call has returned. */
		synchronized void abandon(Thread thread, Map<Integer, Waiting> waiting) {
			if (!this.done) {
				waiting.remove(this.client.id());
				thread.interrupt();
			}
		}

		synchronized void returned(Map<Integer, Waiting> waiting) {
			this.done = true;
			waiting.remove(this.client.id());
			Thread.interrupted();
		}

	}

	/** One grant, as its client saw it. */
	private static final class Grant {

		final Client client;

		final LockHandle handle;

		final String ownerToken;

		final Map<String, Long> tokens;

		final long callStart;

		final long grantedAt;

		volatile long closedAt;

		volatile long abandonedAt;

		Grant(Client client, LockHandle handle, String ownerToken, Map<String, Long> tokens, long callStart,
				long grantedAt) {
			this.client = client;
			this.handle = handle;
			this.ownerToken = ownerToken;
			this.tokens = tokens;
			this.callStart = callStart;
			this.grantedAt = grantedAt;
		}

		/**
		 * Whether the store may still give this grant its keys at {@code nanos}: its handle says held, or
		 * it was released with a minimum hold, or left to expire, less than that long after the client was
		 * granted (later than the store granted it), with {@link #LEASE_END_SLACK_MILLIS} to spare.
		 */
		boolean mayHoldAt(long nanos) {
			long slack = TimeUnit.MILLISECONDS.toNanos(LEASE_END_SLACK_MILLIS);
			if (this.handle.isHeld()) {
				return true;
			}
			if (this.closedAt != 0) {
				return nanos < this.grantedAt + TimeUnit.MILLISECONDS.toNanos(this.client.holdAtLeastMs()) + slack;
			}
			return this.abandonedAt != 0
					&& nanos < this.grantedAt + TimeUnit.MILLISECONDS.toNanos(this.client.ttlMs()) + slack;
		}

		/** Whether this grant surely ended before {@code nanos}: released, or its unrenewed lease over. */
		boolean endedBefore(long nanos) {
			long closed = this.closedAt;
			if (closed != 0 && closed < nanos) {
				return true;
			}
			return this.abandonedAt != 0
					&& this.grantedAt + TimeUnit.MILLISECONDS.toNanos(this.client.ttlMs()) < nanos;
		}

	}

}
