package dev.locksmith.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockOptions;

/**
 * A generated interleaving of lock clients on two engines and three or four keys: who starts when, on
 * which engine, for which keys, with which lease, wait and minimum hold, and how the client ends. The
 * generator decides the order and the timing offsets; {@link #shrinkCandidates()} gives the simpler
 * scenarios a failing one is minimised through.
 *
 * @param keyCount how many keys the clients draw from: {@code a}, {@code b}, {@code c} and maybe a fourth
 * @param clients the clients, in the order they start
 */
record QueueScenario(int keyCount, List<Client> clients) {

	static final int ENGINES = 2;

	/** The fourth key: it sorts after {@code c} and lies in the hash slot of {@code a}. */
	static final String FOURTH_KEY = "d8451";

	/** How a client ends once it has its locks, or how it stops waiting. */
	enum Ending {

		/** Closes the handle after its work. */
		RELEASE,

		/** Extends the lease once during its work, then closes the handle. */
		EXTEND_THEN_RELEASE,

		/** Never closes the handle: the lease, not renewed, is left to expire. */
		EXPIRE,

		/** Its waiting thread is interrupted {@code abandonAfterMs} into the wait; released if granted before. */
		ABANDON_WAIT

	}

	/** What a client asks of its keys: an exclusive lock, a read lock, or one of a number of permits. */
	record Access(LockMode mode, int permits) {

		static final Access WRITE = new Access(LockMode.WRITE, 1);

		static final Access READ = new Access(LockMode.READ, 1);

		static Access permits(int permits) {
			return new Access(LockMode.WRITE, permits);
		}

		boolean exclusive() {
			return this.mode == LockMode.WRITE && this.permits == 1;
		}

		LockOptions applyTo(LockOptions options) {
			return options.withMode(this.mode).withPermits(this.permits);
		}

		@Override
		public String toString() {
			return (this.permits > 1) ? "permits=" + this.permits : this.mode.toString();
		}

	}

	/**
	 * One client: it starts {@code startMs} after the scenario, on engine {@code engine}, and asks for
	 * {@code keys} with the lease, wait and minimum hold given; once granted it works {@code workMs} and
	 * ends as {@code ending} says.
	 */
	record Client(int id, int startMs, int engine, List<String> keys, int ttlMs, int waitMs, int holdAtLeastMs,
			boolean renew, int workMs, Ending ending, int abandonAfterMs, int extendTtlMs, Access access) {

		Client {
			keys = List.copyOf(new TreeSet<>(keys));
			holdAtLeastMs = Math.min(holdAtLeastMs, ttlMs);
			if (ending == Ending.EXPIRE) {
				renew = false;
			}
			if (ending == Ending.ABANDON_WAIT) {
				abandonAfterMs = Math.max(1, Math.min(abandonAfterMs, Math.max(1, waitMs - 1)));
			}
		}

		@Override
		public String toString() {
			StringBuilder text = new StringBuilder();
			text.append(String.format("c%d @%4dms p%d %-9s %-9s ttl=%4dms wait=%4dms", this.id, this.startMs,
					this.engine, this.keys, this.access, this.ttlMs, this.waitMs));
			if (this.holdAtLeastMs > 0) {
				text.append(" holdAtLeast=").append(this.holdAtLeastMs).append("ms");
			}
			if (!this.renew) {
				text.append(" no-renew");
			}
			text.append(" work=").append(this.workMs).append("ms ").append(this.ending);
			if (this.ending == Ending.ABANDON_WAIT) {
				text.append(" after ").append(this.abandonAfterMs).append("ms");
			}
			if (this.ending == Ending.EXTEND_THEN_RELEASE) {
				text.append(" to ").append(this.extendTtlMs).append("ms");
			}
			return text.toString();
		}

	}

	/**
	 * A scenario of 3 to {@code maxClients} clients. Half the scenarios are hot: mostly multi-key clients
	 * that wait, hold their locks longer, and favour the first keys, so that waiters for overlapping key
	 * sets queue behind each other while some of their keys stay busy.
	 */
	static QueueScenario generate(Random random, int maxClients) {
		int keyCount = 3 + random.nextInt(2);
		int clientCount = Math.min(maxClients, 3) + random.nextInt(Math.max(1, maxClients - 2));
		boolean hot = random.nextBoolean();
		List<Client> clients = new ArrayList<>();
		int start = 0;
		for (int id = 0; id < clientCount; id++) {
			start += (random.nextInt(3) == 0) ? 0 : random.nextInt(hot ? 120 : 200);
			clients.add(generateClient(random, id, start, keyCount, hot));
		}
		return new QueueScenario(keyCount, clients);
	}

	/**
	 * A scenario of 3 to {@code maxClients} readers, writers and permit holders, timed like a hot
	 * {@link #generate} scenario: key {@code a} is read (mostly) and written, key {@code b} is held by one
	 * of 2 or 3 permits (mostly) or written, and now and then a writer takes both. Most clients wait, so
	 * readers queue behind writers, writers behind readers, and permit holders behind each other.
	 */
	static QueueScenario generateModes(Random random, int maxClients) {
		Access permits = Access.permits(2 + random.nextInt(2));
		int clientCount = Math.min(maxClients, 3) + random.nextInt(Math.max(1, maxClients - 2));
		List<Client> clients = new ArrayList<>();
		int start = 0;
		for (int id = 0; id < clientCount; id++) {
			start += (random.nextInt(3) == 0) ? 0 : random.nextInt(150);
			Client timed = generateClient(random, id, start, 2, true);
			int roll = random.nextInt(20);
			clients.add((roll < 2) ? as(timed, List.of(key(0), key(1)), Access.WRITE)
					: (roll < 11) ? as(timed, List.of(key(0)), (random.nextInt(10) < 7) ? Access.READ : Access.WRITE)
							: as(timed, List.of(key(1)), (random.nextInt(10) < 8) ? permits : Access.WRITE));
		}
		return new QueueScenario(2, clients);
	}

	private static Client as(Client x, List<String> keys, Access access) {
		return new Client(x.id(), x.startMs(), x.engine(), keys, x.ttlMs(), x.waitMs(), x.holdAtLeastMs(), x.renew(),
				x.workMs(), x.ending(), x.abandonAfterMs(), x.extendTtlMs(), access);
	}

	private static Client generateClient(Random random, int id, int startMs, int keyCount, boolean hot) {
		List<String> keys = new ArrayList<>();
		boolean multi = hot ? random.nextInt(10) < 7 : random.nextBoolean();
		int size = multi ? 2 + random.nextInt(Math.min(3, keyCount) - 1) : 1;
		while (keys.size() < size) {
			int index = hot ? Math.min(random.nextInt(keyCount), random.nextInt(keyCount)) : random.nextInt(keyCount);
			String key = key(index);
			if (!keys.contains(key)) {
				keys.add(key);
			}
		}
		int ttl = 300 + random.nextInt(2701);
		int wait = (random.nextInt(hot ? 10 : 4) == 0) ? 0 : (hot ? 500 : 0) + random.nextInt(hot ? 1001 : 1501);
		int holdAtLeast = (random.nextInt(4) == 0) ? random.nextInt(ttl + 1) : 0;
		int work = (hot ? 300 : 0) + random.nextInt(hot ? 1201 : 1501);
		int roll = random.nextInt(20);
		Ending ending = (roll < 11) ? Ending.RELEASE : (roll < 14) ? Ending.EXTEND_THEN_RELEASE
				: (roll < 17) ? Ending.EXPIRE : Ending.ABANDON_WAIT;
		if (ending == Ending.ABANDON_WAIT && wait == 0) {
			wait = 200 + random.nextInt(1301);
		}
		return new Client(id, startMs, random.nextInt(ENGINES), keys, ttl, wait, holdAtLeast, random.nextInt(5) != 0,
				work, ending, 1 + random.nextInt(Math.max(1, wait)), 300 + random.nextInt(2701), Access.WRITE);
	}

	/**
	 * The key of {@code index}: {@code a}, {@code b}, {@code c}, then {@value #FOURTH_KEY}, which shares
	 * the hash slot of {@code a}, so that on a cluster a lock of {@code a}, {@code b} and the fourth key
	 * takes its slots in an order other than that of its keys.
	 */
	static String key(int index) {
		return (index == 3) ? FOURTH_KEY : String.valueOf((char) ('a' + index));
	}

	/**
	 * Simpler scenarios, simplest first: one client fewer, then one client simplified (fewer keys, exclusive, plain
	 * release, no minimum hold, renewed, engine 0, shorter times), then the keys in use renamed down.
	 */
	List<QueueScenario> shrinkCandidates() {
		List<QueueScenario> candidates = new ArrayList<>();
		for (int i = this.clients.size() - 1; i >= 0 && this.clients.size() > 1; i--) {
			List<Client> fewer = new ArrayList<>(this.clients);
			fewer.remove(i);
			candidates.add(new QueueScenario(this.keyCount, fewer));
		}
		for (int i = 0; i < this.clients.size(); i++) {
			Client c = this.clients.get(i);
			for (int drop = 0; drop < c.keys().size() && c.keys().size() > 1; drop++) {
				List<String> keys = new ArrayList<>(c.keys());
				keys.remove(drop);
				addChanged(candidates, i, (x) -> with(x, keys, x.ending(), x.holdAtLeastMs(), x.renew(), x.engine()));
			}
			if (c.ending() != Ending.RELEASE) {
				addChanged(candidates, i, (x) -> with(x, x.keys(), Ending.RELEASE, x.holdAtLeastMs(), x.renew(), x.engine()));
			}
			if (c.holdAtLeastMs() > 0) {
				addChanged(candidates, i, (x) -> with(x, x.keys(), x.ending(), 0, x.renew(), x.engine()));
			}
			if (!c.renew() && c.ending() != Ending.EXPIRE) {
				addChanged(candidates, i, (x) -> with(x, x.keys(), x.ending(), x.holdAtLeastMs(), true, x.engine()));
			}
			if (!c.access().exclusive()) {
				addChanged(candidates, i, (x) -> as(x, x.keys(), Access.WRITE));
			}
			if (c.engine() != 0) {
				addChanged(candidates, i, (x) -> with(x, x.keys(), x.ending(), x.holdAtLeastMs(), x.renew(), 0));
			}
		}
		for (int i = 0; i < this.clients.size(); i++) {
			Client c = this.clients.get(i);
			int previousStart = (i == 0) ? 0 : this.clients.get(i - 1).startMs();
			if (c.startMs() > previousStart) {
				int gap = c.startMs() - previousStart;
				shiftStarts(candidates, i, -(gap - gap / 2));
			}
			if (c.workMs() > 0) {
				addChanged(candidates, i, (x) -> new Client(x.id(), x.startMs(), x.engine(), x.keys(), x.ttlMs(),
						x.waitMs(), x.holdAtLeastMs(), x.renew(), x.workMs() / 2, x.ending(), x.abandonAfterMs(),
						x.extendTtlMs(), x.access()));
			}
			if (c.ttlMs() > 300) {
				addChanged(candidates, i, (x) -> new Client(x.id(), x.startMs(), x.engine(), x.keys(),
						300 + (x.ttlMs() - 300) / 2, x.waitMs(), x.holdAtLeastMs(), x.renew(), x.workMs(), x.ending(),
						x.abandonAfterMs(), x.extendTtlMs(), x.access()));
			}
		}
		int used = (int) this.clients.stream().flatMap((c) -> c.keys().stream()).distinct().count();
		if (used < this.keyCount) {
			candidates.add(renamedKeys());
		}
		return candidates;
	}

	private void addChanged(List<QueueScenario> candidates, int index, UnaryOperator<Client> change) {
		List<Client> changed = new ArrayList<>(this.clients);
		changed.set(index, change.apply(this.clients.get(index)));
		candidates.add(new QueueScenario(this.keyCount, changed));
	}

	/** Starts client {@code from} and every later one {@code by} milliseconds later (earlier when negative). */
	private void shiftStarts(List<QueueScenario> candidates, int from, int by) {
		List<Client> shifted = new ArrayList<>(this.clients);
		for (int i = from; i < shifted.size(); i++) {
			Client x = shifted.get(i);
			shifted.set(i, new Client(x.id(), x.startMs() + by, x.engine(), x.keys(), x.ttlMs(), x.waitMs(),
					x.holdAtLeastMs(), x.renew(), x.workMs(), x.ending(), x.abandonAfterMs(), x.extendTtlMs(),
					x.access()));
		}
		candidates.add(new QueueScenario(this.keyCount, shifted));
	}

	private static Client with(Client x, List<String> keys, Ending ending, int holdAtLeastMs, boolean renew,
			int engine) {
		return new Client(x.id(), x.startMs(), engine, keys, x.ttlMs(), x.waitMs(), holdAtLeastMs, renew, x.workMs(),
				ending, x.abandonAfterMs(), x.extendTtlMs(), x.access());
	}

	/** The same scenario on the fewest keys: the keys in use renamed to a, b, ... in order of first use. */
	private QueueScenario renamedKeys() {
		List<String> order = this.clients.stream().flatMap((c) -> c.keys().stream()).distinct().toList();
		List<Client> renamed = this.clients.stream().map((x) -> new Client(x.id(), x.startMs(), x.engine(),
				x.keys().stream().map((k) -> key(order.indexOf(k))).toList(), x.ttlMs(), x.waitMs(), x.holdAtLeastMs(),
				x.renew(), x.workMs(), x.ending(), x.abandonAfterMs(), x.extendTtlMs(), x.access())).toList();
		return new QueueScenario(Math.max(1, order.size()), renamed);
	}

	/** The keys the clients draw from: {@code a}, {@code b} and so on. */
	List<String> keys() {
		return IntStream.range(0, this.keyCount).mapToObj(QueueScenario::key).toList();
	}

	/** How long the scenario runs at most, from the first start to the last client's end, without load. */
	int longestMs() {
		return this.clients.stream()
			.mapToInt((c) -> c.startMs() + c.waitMs() + c.workMs() * 3 / 2)
			.max()
			.orElse(0);
	}

	@Override
	public String toString() {
		return this.clients.stream()
			.map((c) -> "  " + c)
			.collect(Collectors.joining("\n", this.clients.size() + " clients on keys " + keys() + ":\n", ""));
	}

}
