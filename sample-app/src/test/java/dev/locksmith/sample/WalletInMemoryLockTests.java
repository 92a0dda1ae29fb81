package dev.locksmith.sample;

// tag::in-memory-store-test[]
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.locksmith.core.LockService;
import dev.locksmith.sample.wallet.Account;
import dev.locksmith.sample.wallet.WalletService;

import static dev.locksmith.test.LockAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The wallet's locking tested the fast way, as users of locksmith-test test theirs: on the in-memory
 * lock store, with no Redis at all, and with the AssertJ lock assertions.
 */
@SpringBootTest(properties = "locksmith.store=in-memory")
class WalletInMemoryLockTests {

	@Autowired
	private WalletService wallet;

	@Autowired
	private LockService locks;

	@Test
	void concurrentDepositsToOneAccountAllCount() throws Exception {
		long before = this.wallet.account("alice").balance();
		ExecutorService callers = Executors.newFixedThreadPool(8);
		try {
			List<Future<Account>> deposits = callers.invokeAll(IntStream.range(0, 20)
				.mapToObj((i) -> (Callable<Account>) () -> this.wallet.deposit("alice", 1, Duration.ofMillis(10)))
				.toList());
			for (Future<Account> deposit : deposits) {
				deposit.get();
			}
		}
		finally {
			callers.shutdownNow();
		}

		assertThat(this.wallet.account("alice").balance()).isEqualTo(before + 20);
	}

	@Test
	void aDepositHoldsTheAccountsLockWhileItRunsAndFreesItAfterwards() {
		CompletableFuture<Account> slowDeposit = CompletableFuture
			.supplyAsync(() -> this.wallet.deposit("bob", 1, Duration.ofSeconds(2)));

		await().untilAsserted(() -> assertThat(this.locks).holds("account:bob"));
		slowDeposit.join();

		assertThat(this.locks).isFree("account:bob");
	}

}
// end::in-memory-store-test[]
