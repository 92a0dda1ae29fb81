package dev.locksmith.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.event.EventListener;

import dev.locksmith.actuate.LocksEndpoint.ClusterLock;
import dev.locksmith.actuate.LocksEndpoint.ClusterLocks;
import dev.locksmith.actuate.LocksEndpoint.Waiter;
import dev.locksmith.core.ForwardingStore;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.StoreAdministration;
import dev.locksmith.core.WaitQueue;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

import static dev.locksmith.actuate.ActuatorContexts.HOLD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Who waits for whom in the cluster view: each lock's holder and waiters in queue order, the longest waits
 * shown, and the deadlocks of the wait-for graph reported once, on a real Redis and on the in-memory store
 * that two instances share.
 */
@ExtendWith(OutputCaptureExtension.class)
class LocksEndpointWaitsTests {

	@RegisterExtension
	static final ActuatorContexts contexts = new ActuatorContexts();

	/** Waits longer than any test. */
	private static final LockOptions WAIT = HOLD.withName("job").withWaitTime(Duration.ofSeconds(60));

	/** The stores the view is read from. */
	enum Store {

		REDIS((runner) -> runner),

		IN_MEMORY((runner) -> {
			InMemoryLockBackend shared = new InMemoryLockBackend();
			return runner.withPropertyValues("locksmith.store=in-memory")
				.withBean(InMemoryLockBackend.class, () -> shared);
		});

		private final UnaryOperator<ApplicationContextRunner> setUp;

		Store(UnaryOperator<ApplicationContextRunner> setUp) {
			this.setUp = setUp;
		}

		/**
		 * A runner whose contexts share one store of this kind, with a listener of deadlock events; store calls
		 * may take longer than the default 2s on a loaded machine.
		 */
		ApplicationContextRunner runner() {
			return this.setUp.apply(contexts.runner())
				.withPropertyValues("locksmith.redis-timeout=10s")
				.withBean(DeadlockEvents.class);
		}

	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void theClusterViewListsTheHolderAndItsWaitersInQueueOrderWithTheLongestWaitsShown(Store store) {
		store.runner().run((context) -> {
			LockService locks = context.getBean(LockService.class);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockHandle held = locks.acquire("job:1", HOLD.withName("job"));
			locks.acquire("job:2", HOLD.withName("job"));
			ExecutorService threads = Executors.newFixedThreadPool(2);
			Map<String, Long> threadIds = new ConcurrentHashMap<>();
			try {
				threads.submit(() -> {
					threadIds.put("first", Thread.currentThread().getId());
					return locks.acquire("job:1", WAIT);
				});
				polling().until(() -> cluster(endpoint, null).waits().waiting() == 1);
				threads.submit(() -> {
					threadIds.put("second", Thread.currentThread().getId());
					return locks.acquireAll(List.of("job:1", "job:2"), WAIT);
				});
				ClusterLocks view = polling()
					.until(() -> cluster(endpoint, null), (look) -> look.waits().waiting() == 3);

				Waiter first = new Waiter("node-1", "job", Long.toString(threadIds.get("first")), 0L, 0L, false);
				Waiter second = new Waiter("node-1", "job", Long.toString(threadIds.get("second")), 0L, 0L, false);
				assertThat(view.waits().listed()).isTrue();
				assertThat(view.waits().shown()).isEqualTo(3);
				assertThat(view.waits().deadlocks()).isEmpty();
				ClusterLock job1 = lock(view, held.fencingToken());
				assertThat(job1.key()).isEqualTo("job:******");
				assertThat(job1.heldForMillis()).isBetween(0L, 60_000L);
				assertThat(job1.waiters()).extracting(Waiter::instance, Waiter::name, Waiter::thread, Waiter::parked)
					.containsExactly(tuple(first), tuple(second));
				assertThat(job1.waiters().get(0).waitingForMillis())
					.isGreaterThan(job1.waiters().get(1).waitingForMillis());
				assertThat(job1.waiters()).allSatisfy((waiter) -> assertThat(waiter.waitLeftMillis()).isBetween(1L, 60_000L));
				ClusterLock job2 = view.locks().stream().filter((lock) -> lock != job1).findFirst().orElseThrow();
				assertThat(job2.waiters()).extracting(Waiter::thread, Waiter::parked)
					.containsExactly(org.assertj.core.groups.Tuple.tuple(second.thread(), true));

				ClusterLocks longest = cluster(endpoint, 1);
				assertThat(longest.waits().waiting()).isEqualTo(3);
				assertThat(longest.waits().shown()).isEqualTo(1);
				assertThat(longest.locks()).flatExtracting(ClusterLock::waiters)
					.extracting(Waiter::thread)
					.containsExactly(first.thread());
			}
			finally {
				threads.shutdownNow();
				threads.awaitTermination(30, TimeUnit.SECONDS);
			}
		});
	}

	/**
	 * Two instances on one store run nested opposite transfers: one locks account A then B, the other B then
	 * A. Each holds its first lock and waits for the other's: the look that first sees both waits reports the
	 * cycle, and it is logged and published once however often the view is read again.
	 */
	@ParameterizedTest
	@EnumSource(Store.class)
	void aDeadlockOfNestedOppositeTransfersOnTwoInstancesIsReportedOnceByTheLookThatSeesBothWaits(Store store,
			CapturedOutput output) {
		ApplicationContextRunner runner = store.runner();
		runner.run((first) -> runner.withPropertyValues("locksmith.instance-id=node-2").run((second) -> {
			LocksEndpoint endpoint = first.getBean(LocksEndpoint.class);
			ExecutorService threads = Executors.newFixedThreadPool(2);
			CountDownLatch bothHoldTheirFirst = new CountDownLatch(2);
			Map<String, Long> threadIds = new ConcurrentHashMap<>();
			try {
				threads.submit(() -> transfer(first.getBean(LockService.class), "account:alice", "account:bob",
						bothHoldTheirFirst, threadIds, "node-1"));
				threads.submit(() -> transfer(second.getBean(LockService.class), "account:bob", "account:alice",
						bothHoldTheirFirst, threadIds, "node-2"));
				ClusterLocks look = polling()
					.until(() -> cluster(endpoint, null), (view) -> view.waits().waiting() == 2);

				assertThat(look.waits().deadlocks()).singleElement().satisfies((deadlock) -> {
					assertThat(deadlock.threads()).containsExactly("node-1#" + threadIds.get("node-1"),
							"node-2#" + threadIds.get("node-2"));
					assertThat(deadlock.locks()).containsExactly("account:******", "account:******");
				});
				cluster(endpoint, null);
				cluster(endpoint, null);
				assertThat(output.getAll().split("Deadlock: threads node-1#", -1)).as("WARNs of the deadlock").hasSize(2);
				assertThat(output.getAll()).contains("wait for one another's locks account:******, account:******")
					.doesNotContain("alice");
				assertThat(first.getBean(DeadlockEvents.class).received).singleElement()
					.satisfies((event) -> assertThat(event.threads()).isEqualTo(look.waits().deadlocks().get(0).threads()));
			}
			finally {
				threads.shutdownNow();
				threads.awaitTermination(30, TimeUnit.SECONDS);
			}
		}));
	}

	@Test
	void theHealthCheckNeverListsTheQueuesAndTheClusterViewListsThemOncePerLook() {
		InMemoryLockBackend backend = new InMemoryLockBackend();
		AtomicInteger listings = new AtomicInteger();
		StoreAdministration counting = new WithoutQueues(backend.administration()) {

			@Override
			public CompletableFuture<List<WaitQueue>> waitQueues(int limit) {
				listings.incrementAndGet();
				return backend.administration().waitQueues(limit);
			}

		};
		contexts.runner().withPropertyValues("locksmith.store=in-memory")
			.withBean(LockStore.class, () -> administeredBy(backend, counting))
			.run((context) -> {
				context.getBean(LockService.class).acquire("job:1", HOLD.withName("job"));
				assertThat(context.getBean(LocksHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
				cluster(context.getBean(LocksEndpoint.class), null);

				assertThat(listings).hasValue(1);
			});
	}

	@Test
	void aStoreThatDoesNotListItsQueuesShowsItsLocksWithoutWaiters() {
		InMemoryLockBackend backend = new InMemoryLockBackend();
		contexts.runner().withPropertyValues("locksmith.store=in-memory")
			.withBean(LockStore.class, () -> administeredBy(backend, new WithoutQueues(backend.administration())))
			.run((context) -> {
				context.getBean(LockService.class).acquire("job:1", HOLD.withName("job"));
				ClusterLocks view = cluster(context.getBean(LocksEndpoint.class), null);

				assertThat(view.waits()).isEqualTo(new LocksEndpoint.Waits(false, 0, 0, List.of()));
				assertThat(view.locks()).singleElement().satisfies((lock) -> {
					assertThat(lock.key()).isEqualTo("job:******");
					assertThat(lock.waiters()).isEmpty();
					assertThat(lock.fencingToken()).isNull();
				});
			});
	}

	@Test
	void aNegativeNumberOfWaitersIsRefused() {
		contexts.runner().run((context) -> assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> context.getBean(LocksEndpoint.class).locks("cluster", -1, SecurityContext.NONE)));
	}

	/** Locks {@code from}, then, once both transfers hold their first lock, {@code to} inside it. */
	private static Void transfer(LockService locks, String from, String to, CountDownLatch bothHoldTheirFirst,
			Map<String, Long> threadIds, String instance) throws InterruptedException {
		threadIds.put(instance, Thread.currentThread().getId());
		LockOptions account = HOLD.withName("account").withWaitTime(Duration.ofSeconds(60));
		try (LockHandle debit = locks.acquire(from, account)) {
			bothHoldTheirFirst.countDown();
			bothHoldTheirFirst.await();
			try (LockHandle credit = locks.acquire(to, account)) {
				return null;
			}
		}
	}

	/** Polls the view, which a store call that ran out of time on a loaded machine only delays. */
	private static ConditionFactory polling() {
		return await().atMost(Duration.ofSeconds(60)).ignoreExceptionsInstanceOf(LockUnavailableException.class);
	}

	private static ClusterLocks cluster(LocksEndpoint endpoint, Integer waiters) {
		return (ClusterLocks) endpoint.locks("cluster", waiters, SecurityContext.NONE);
	}

	private static ClusterLock lock(ClusterLocks view, long fencingToken) {
		return view.locks().stream()
			.filter((lock) -> Long.valueOf(fencingToken).equals(lock.fencingToken()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No lock with fencing token " + fencingToken + " in " + view));
	}

	private static org.assertj.core.groups.Tuple tuple(Waiter waiter) {
		return org.assertj.core.groups.Tuple.tuple(waiter.instance(), waiter.name(), waiter.thread(), waiter.parked());
	}

	/** {@code backend}, administered by {@code administration}. */
	private static LockStore administeredBy(InMemoryLockBackend backend, StoreAdministration administration) {
		return new ForwardingStore(backend) {

			@Override
			public StoreAdministration administration() {
				return administration;
			}

		};
	}

	/** An administration that forwards to another and, as the SPI's default, does not list wait queues. */
	static class WithoutQueues implements StoreAdministration {

		private final StoreAdministration administration;

		WithoutQueues(StoreAdministration administration) {
			this.administration = administration;
		}

		@Override
		public String storeDescription() {
			return this.administration.storeDescription();
		}

		@Override
		public CompletableFuture<Void> ping() {
			return this.administration.ping();
		}

		@Override
		public CompletableFuture<List<StoredLock>> storedLocks(int limit) {
			return this.administration.storedLocks(limit);
		}

		@Override
		public CompletableFuture<Boolean> forceRelease(String key) {
			return this.administration.forceRelease(key);
		}

	}

	/** Collects the deadlock events the context publishes. */
	static class DeadlockEvents {

		final Queue<LockDeadlockEvent> received = new ConcurrentLinkedQueue<>();

		@EventListener
		void on(LockDeadlockEvent event) {
			this.received.add(event);
		}

	}

}
