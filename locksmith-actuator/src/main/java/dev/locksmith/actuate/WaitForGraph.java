package dev.locksmith.actuate;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.locksmith.core.StoredOwner;
import dev.locksmith.core.WaitQueue;
import dev.locksmith.core.WaitQueue.Waiter;

/**
 * Who waits for whom across the fleet: an edge from each thread that waits for a lock to each thread that
 * holds it, threads named {@code <instance>#<thread>} as their owner tokens name them. A thread that holds
 * one lock and waits for another, or holds several keys at once, joins its holds to its waits. A waiter
 * parked in a queue waits for another key of its request, where its edge is; an owner whose token names no
 * thread makes none. Each set of threads that wait for one another in a cycle is a deadlock.
 */
final class WaitForGraph {

	/** For each waiting thread, the threads it waits for and the locks it waits for them on. */
	private final Map<String, Map<String, Set<String>>> edges = new TreeMap<>();

	private final Map<String, WaitQueue> queues = new HashMap<>();

	private WaitForGraph(List<WaitQueue> queues) {
		for (WaitQueue queue : queues) {
			this.queues.put(queue.key(), queue);
			List<String> holders = queue.holders().stream().map(StoredOwner::threadId).filter((id) -> id != null).toList();
			for (Waiter waiter : queue.waiters()) {
				String from = waiter.owner().threadId();
				if (from == null || waiter.parked()) {
					continue;
				}
				for (String to : holders) {
					this.edges.computeIfAbsent(from, (k) -> new TreeMap<>())
						.computeIfAbsent(to, (k) -> new TreeSet<>())
						.add(queue.key());
				}
			}
		}
	}

	/** The graph of the owners in {@code queues}. */
	static WaitForGraph of(List<WaitQueue> queues) {
		return new WaitForGraph(queues);
	}

	/**
	 * The deadlocks: each strongly connected set of threads, of two or more or one that waits for itself,
	 * with the locks its threads wait for one another on, both in a stable order.
	 */
	List<Deadlock> deadlocks() {
		List<Deadlock> deadlocks = new ArrayList<>();
		for (Set<String> component : new Components().find()) {
			Set<String> keys = new TreeSet<>();
			for (String from : component) {
				this.edges.getOrDefault(from, Map.of()).forEach((to, locks) -> {
					if (component.contains(to)) {
						keys.addAll(locks);
					}
				});
			}
			if (component.size() > 1 || !keys.isEmpty()) {
				deadlocks.add(new Deadlock(List.copyOf(component), keys.stream().map(this.queues::get).toList()));
			}
		}
		deadlocks.sort(Comparator.comparing((Deadlock deadlock) -> deadlock.threads().get(0)));
		return deadlocks;
	}

	/**
	 * Threads that wait for one another in a cycle, and the locks they wait on.
	 *
	 * @param threads the threads, as {@code <instance>#<thread>}, sorted
	 * @param locks the locks of the cycle's edges, by key
	 */
	record Deadlock(List<String> threads, List<WaitQueue> locks) {
	}

	/** Tarjan's strongly connected components, each as a sorted set, without recursion. */
	private final class Components {

		private final Map<String, Integer> index = new HashMap<>();

		private final Map<String, Integer> low = new HashMap<>();

		private final Deque<String> stack = new ArrayDeque<>();

		private final Set<String> onStack = new HashSet<>();

		private final List<Set<String>> found = new ArrayList<>();

		List<Set<String>> find() {
			for (String node : WaitForGraph.this.edges.keySet()) {
				if (!this.index.containsKey(node)) {
					visit(node);
				}
			}
			return this.found;
		}

		private void visit(String root) {
			Deque<Frame> frames = new ArrayDeque<>();
			enter(root, frames);
			while (!frames.isEmpty()) {
				Frame frame = frames.peek();
				if (frame.next < frame.targets.size()) {
					String target = frame.targets.get(frame.next++);
					if (!this.index.containsKey(target)) {
						enter(target, frames);
					}
					else if (this.onStack.contains(target)) {
						this.low.merge(frame.node, this.index.get(target), Math::min);
					}
					continue;
				}
				frames.pop();
				if (!frames.isEmpty()) {
					this.low.merge(frames.peek().node, this.low.get(frame.node), Math::min);
				}
				if (this.low.get(frame.node).equals(this.index.get(frame.node))) {
					Set<String> component = new TreeSet<>();
					String member;
					do {
						member = this.stack.pop();
						this.onStack.remove(member);
						component.add(member);
					}
					while (!member.equals(frame.node));
					this.found.add(component);
				}
			}
		}

		private void enter(String node, Deque<Frame> frames) {
			this.index.put(node, this.index.size());
			this.low.put(node, this.index.get(node));
			this.stack.push(node);
			this.onStack.add(node);
			frames.push(new Frame(node, List.copyOf(WaitForGraph.this.edges.getOrDefault(node, Map.of()).keySet())));
		}

	}

	/** A node being visited, and which of its targets comes next. */
	private static final class Frame {

		private final String node;

		private final List<String> targets;

		private int next;

		Frame(String node, List<String> targets) {
			this.node = node;
			this.targets = targets;
		}

	}

}
