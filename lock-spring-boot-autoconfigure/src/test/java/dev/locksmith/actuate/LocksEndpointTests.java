package dev.locksmith.actuate;

import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.assertj.core.groups.Tuple;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.locksmith.actuate.LocksEndpoint.ClusterLock;
import dev.locksmith.actuate.LocksEndpoint.ClusterLocks;
import dev.locksmith.actuate.LocksEndpoint.ForcedRelease;
import dev.locksmith.actuate.LocksEndpoint.HeldLock;
import dev.locksmith.actuate.LocksEndpoint.InstanceLocks;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;

import static dev.locksmith.actuate.ActuatorContexts.HOLD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The locks endpoint: both views, key masking and its visibility settings, and forced release, on a real Redis. */
@ExtendWith(OutputCaptureExtension.class)
class LocksEndpointTests {

	@RegisterExtension
	static final ActuatorContexts contexts = new ActuatorContexts();

	@Test
	void anAnnotatedLocksKeyIsMaskedAfterItsNameInBothViews() {
		contexts.runner().run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			try (LockHandle handle = context.getBean(LockService.class)
				.acquire("Wallets.withdraw:alice", HOLD.withName("Wallets.withdraw"))) {
				assertThat(instanceLocks(endpoint, SecurityContext.NONE)).singleElement().satisfies((lock) -> {
					assertThat(lock.name()).isEqualTo("Wallets.withdraw");
					assertThat(lock.key()).isEqualTo("Wallets.withdraw:******");
					assertThat(lock.fencingToken()).isEqualTo(handle.fencingToken());
				});
				ClusterLocks cluster = (ClusterLocks) endpoint.locks("cluster", null, SecurityContext.NONE);
				assertThat(cluster.locks()).singleElement().satisfies((lock) -> {
					assertThat(lock.name()).isEqualTo("Wallets.withdraw");
					assertThat(lock.key()).isEqualTo("Wallets.withdraw:******");
					assertThat(lock.holderInstance()).isEqualTo("node-1");
					assertThat(lock.remainingTtlMillis()).isBetween(1L, 30_000L);
				});
			}
		});
	}

	@Test
	void aKeylessLocksNameIsShownInTheClusterViewWhileKeysStayMasked() {
		contexts.runner().run((context) -> {
			LockService locks = context.getBean(LockService.class);
			locks.acquire("stock-report", HOLD.withName("stock-report"));
			locks.acquire("Wallets.withdraw:alice", HOLD.withName("Wallets.withdraw"));
			locks.acquire("refund-7", HOLD);

			ClusterLocks cluster = (ClusterLocks) context.getBean(LocksEndpoint.class)
				.locks("cluster", null, SecurityContext.NONE);
			assertThat(cluster.locks()).extracting(ClusterLock::name, ClusterLock::key, ClusterLock::holderInstance)
				.containsExactlyInAnyOrder(Tuple.tuple("stock-report", "stock-report", "node-1"),
						Tuple.tuple("Wallets.withdraw", "Wallets.withdraw:******", "node-1"),
						Tuple.tuple(null, "******", "node-1"));
		});
	}

	@Test
	void aProgrammaticKeyIsMaskedWholeWhateverItsShape() {
		contexts.runner().run((context) -> {
			LockService locks = context.getBean(LockService.class);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			locks.acquire("invoice-42", HOLD.withName("invoice"));
			locks.acquire("refund-7", HOLD);
			locks.acquire("payment:9", HOLD);

			assertThat(instanceLocks(endpoint, SecurityContext.NONE)).extracting(HeldLock::name, HeldLock::key)
				.containsExactlyInAnyOrder(Tuple.tuple("invoice", "******"),
						Tuple.tuple(null, "******"),
						Tuple.tuple(null, "******"));
		});
	}

	@Test
	void keysAreShownWhenAlwaysAllowed() {
		contexts.runner().withPropertyValues("management.endpoint.locks.show-values=always").run((context) -> {
			context.getBean(LockService.class).acquire("invoice-42", HOLD.withName("invoice"));
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);

			assertThat(instanceLocks(endpoint, SecurityContext.NONE)).extracting(HeldLock::key)
				.containsExactly("invoice-42");
			assertThat(((ClusterLocks) endpoint.locks("cluster", null, SecurityContext.NONE)).locks())
				.extracting(ClusterLock::key)
				.containsExactly("invoice-42");
		});
	}

	@Test
	void whenAuthorizedShowsKeysOnlyToAPrincipalInOneOfTheRoles() {
		contexts.runner().withPropertyValues("management.endpoint.locks.show-values=when-authorized",
				"management.endpoint.locks.roles=ops")
			.run((context) -> {
				context.getBean(LockService.class).acquire("invoice-42", HOLD.withName("invoice"));
				LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);

				assertThat(instanceLocks(endpoint, SecurityContext.NONE)).extracting(HeldLock::key)
					.containsExactly("******");
				assertThat(instanceLocks(endpoint, principal("mallory", "customer"))).extracting(HeldLock::key)
					.containsExactly("******");
				assertThat(((ClusterLocks) endpoint.locks("cluster", null, principal("mallory", "customer"))).locks())
					.extracting(ClusterLock::key)
					.containsExactly("******");
				assertThat(instanceLocks(endpoint, principal("olivia", "ops"))).extracting(HeldLock::key)
					.containsExactly("invoice-42");
			});
	}

	@Test
	void whenAuthorizedWithoutRolesShowsKeysToAnyAuthenticatedPrincipal() {
		contexts.runner().withPropertyValues("management.endpoint.locks.show-values=when-authorized").run((context) -> {
			context.getBean(LockService.class).acquire("invoice-42", HOLD.withName("invoice"));
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);

			assertThat(instanceLocks(endpoint, SecurityContext.NONE)).extracting(HeldLock::key)
				.containsExactly("******");
			assertThat(instanceLocks(endpoint, principal("mallory", "customer"))).extracting(HeldLock::key)
				.containsExactly("invoice-42");
		});
	}

	@Test
	void forcedReleaseDeletesOnlyTheLockAndKeepsTheFencingCounter(CapturedOutput output) {
		contexts.runner().run((context) -> {
			LockService locks = context.getBean(LockService.class);
			LockHandle evicted = locks.acquire("job:1", HOLD);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);

			assertThat(endpoint.release("job:1", principal("olivia", "ops")))
				.isEqualTo(new ForcedRelease("job:1", true));
			assertThat(contexts.redis().command("EXISTS", "lock:{job:1}")).isEqualTo("0");
			assertThat(endpoint.release("job:1", SecurityContext.NONE)).isEqualTo(new ForcedRelease("job:1", false));
			LockHandle next = locks.acquire("job:1", HOLD);
			assertThat(next.fencingToken()).isGreaterThan(evicted.fencingToken());
			assertThat(output).contains("Forced release of lock 'job:******' requested by olivia")
				.doesNotContain("job:1");
		});
	}

	/**
	 * Six threads force-release one key at once while three waiters queue for it. Each call answers or is
	 * refused as past the bound on administration calls in flight; the holder is evicted and every waiter
	 * is granted in turn, with a token of its own greater than the holder's: none is dropped from the queue.
	 * A release that lands while the lock is being handed over takes back that waiter's claim.
	 */
	@Test
	void concurrentForcedReleasesEvictTheHolderAndGrantEveryWaiterInTurn() {
		contexts.runner().run((context) -> {
			LockService locks = context.getBean(LockService.class);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockHandle evicted = locks.acquire("job:2", HOLD);
			BlockingQueue<LockHandle> granted = new LinkedBlockingQueue<>();
			ExecutorService threads = Executors.newFixedThreadPool(9);
			try {
				for (int i = 0; i < 3; i++) {
					threads.submit(() -> granted.add(locks.acquire("job:2", HOLD.withWaitTime(Duration.ofSeconds(60)))));
				}
				await().until(() -> queued("job:2") == 3);
				CountDownLatch start = new CountDownLatch(1);
				List<Future<ForcedRelease>> releases = new ArrayList<>();
				for (int i = 0; i < 6; i++) {
					releases.add(threads.submit(() -> {
						start.await();
						return endpoint.release("job:2", SecurityContext.NONE);
					}));
				}
				start.countDown();
				int released = 0;
				for (Future<ForcedRelease> release : releases) {
					try {
						released += release.get().released() ? 1 : 0;
					}
					catch (ExecutionException ex) {
						assertThat(ex).cause()
							.isInstanceOf(LockUnavailableException.class)
							.hasMessageContaining("Too many lock administration calls in flight");
					}
				}
				assertThat(released).as("releases that took effect").isPositive();
				await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(evicted.lost().toCompletableFuture()).isDone());

				Set<Long> tokens = new HashSet<>();
				for (int waiter = 0; waiter < 3; waiter++) {
					LockHandle holder = granted.poll(60, TimeUnit.SECONDS);
					assertThat(holder).as("waiter %d granted", waiter).isNotNull();
					assertThat(holder.fencingToken()).as("a waiter's token").isGreaterThan(evicted.fencingToken());
					assertThat(tokens.add(holder.fencingToken())).as("a token of its own").isTrue();
					holder.close();
				}
				assertThat(queued("job:2")).as("waiters left").isZero();
			}
			finally {
				threads.shutdownNow();
			}
		});
	}

	private static int queued(String key) {
		return Integer.parseInt(contexts.redis().command("LLEN", "lock:queue:{" + key + "}"));
	}

	private static List<HeldLock> instanceLocks(LocksEndpoint endpoint, SecurityContext securityContext) {
		return ((InstanceLocks) endpoint.locks(null, null, securityContext)).locks();
	}

	/** An authenticated caller who is in {@code role} and in no other. */
	private static SecurityContext principal(String name, String role) {
		Principal principal = () -> name;
		return new SecurityContext() {

			@Override
			public @Nullable Principal getPrincipal() {
				return principal;
			}

			@Override
			public boolean isUserInRole(String asked) {
				return asked.equals(role);
			}

		};
	}

}
