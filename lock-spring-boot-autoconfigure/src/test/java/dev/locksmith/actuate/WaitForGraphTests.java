package dev.locksmith.actuate;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.locksmith.actuate.WaitForGraph.Deadlock;
import dev.locksmith.core.StoredOwner;
import dev.locksmith.core.WaitQueue;
import dev.locksmith.core.WaitQueue.Waiter;

import static org.assertj.core.api.Assertions.assertThat;

/** The wait-for graph joins a thread's holds to its waits, multi-key holds included, and finds its cycles. */
class WaitForGraphTests {

	private static final StoredOwner T1 = thread("node-1", "1");

	private static final StoredOwner T2 = thread("node-2", "7");

	private static final StoredOwner T3 = thread("node-3", "9");

	@Test
	void aMultiKeyHolderAndANestedWaiterCloseACycle() {
		// T1 holds a and b together, T2 holds c and waits for b, T1 waits for c: T1 -> T2 -> T1
		List<WaitQueue> queues = List.of(queue("a", List.of(T1), waiting(T3, false)),
				queue("b", List.of(T1), waiting(T2, false)), queue("c", List.of(T2), waiting(T1, false)));

		assertThat(WaitForGraph.of(queues).deadlocks()).singleElement().satisfies((deadlock) -> {
			assertThat(deadlock.threads()).containsExactly("node-1#1", "node-2#7");
			assertThat(deadlock.locks()).extracting(WaitQueue::key).containsExactly("b", "c");
		});
	}

	@Test
	void aThreeThreadCycleAcrossInstancesIsOneDeadlock() {
		List<WaitQueue> queues = List.of(queue("a", List.of(T1), waiting(T2, false)),
				queue("b", List.of(T2), waiting(T3, false)), queue("c", List.of(T3), waiting(T1, false)));

		assertThat(WaitForGraph.of(queues).deadlocks()).extracting(Deadlock::threads)
			.containsExactly(List.of("node-1#1", "node-2#7", "node-3#9"));
	}

	@Test
	void aParkedWaiterAndAChainWithoutACycleAreNoDeadlock() {
		// T2 is parked in a (it waits for another key of its request): no edge to T1
		List<WaitQueue> queues = List.of(queue("a", List.of(T1), waiting(T2, true)),
				queue("b", List.of(T2), waiting(T1, false)), queue("c", List.of(T1), waiting(T3, false)));

		assertThat(WaitForGraph.of(queues).deadlocks()).isEmpty();
	}

	@Test
	void anOwnerWhoseTokenNamesNoThreadMakesNoEdge() {
		StoredOwner unknown = new StoredOwner("node-2", null, null, null);
		List<WaitQueue> queues = List.of(queue("a", List.of(T1), waiting(unknown, false)),
				queue("b", List.of(unknown), waiting(T1, false)));

		assertThat(WaitForGraph.of(queues).deadlocks()).isEmpty();
	}

	private static StoredOwner thread(String instance, String thread) {
		return new StoredOwner(instance, "account", thread, null);
	}

	private static Waiter waiting(StoredOwner owner, boolean parked) {
		return new Waiter(owner, Duration.ofSeconds(30), parked);
	}

	private static WaitQueue queue(String key, List<StoredOwner> holders, Waiter waiter) {
		return new WaitQueue(key, holders, 1, Duration.ZERO, List.of(waiter));
	}

}
