package dev.locksmith.test;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

import static dev.locksmith.test.LockAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The AssertJ assertions on a lock service, and what their failures say. */
class LockServiceAssertTests {

	private static final LockOptions OPTIONS = LockOptions.ofTtl(Duration.ofSeconds(30));

	private final InMemoryLockBackend store = new InMemoryLockBackend();

	private final DefaultLockService locks = DefaultLockService.builder(this.store).build();

	private final DefaultLockService otherOwner = DefaultLockService.builder(this.store).build();

	@AfterEach
	void close() {
		this.locks.close();
		this.otherOwner.close();
	}

	@Test
	void holdsAndDoesNotHoldFollowTheLocksTheServiceHolds() throws Exception {
		try (LockHandle held = this.locks.acquire("account:42", OPTIONS)) {
			assertThat(this.locks).holds("account:42").doesNotHold("account:7");
			assertThat(this.otherOwner).doesNotHold("account:42");
		}
		assertThat(this.locks).doesNotHold("account:42");
	}

	@Test
	void holdsFailsNamingTheKeyAndTheLocksTheServiceHolds() throws Exception {
		LockHandle held = this.locks.acquire("account:7", OPTIONS);

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.locks).holds("account:42"))
			.withMessageContaining("to hold lock 'account:42'")
			.withMessageContaining("'account:7' (thread '" + Thread.currentThread().getName() + "', fencing token "
					+ held.fencingToken() + ")");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.otherOwner).holds("account:7"))
			.withMessageContaining("to hold lock 'account:7', but it holds no lock");
	}

	@Test
	void doesNotHoldFailsNamingTheHoldingThread() throws Exception {
		LockHandle held = this.locks.acquire("account:42", OPTIONS);

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.locks).doesNotHold("account:42"))
			.withMessageContaining("not to hold lock 'account:42'")
			.withMessageContaining("thread '" + Thread.currentThread().getName() + "', fencing token " + held.fencingToken());
	}

	@Test
	void isFreePassesForAFreeLockAndLeavesItFree() throws Exception {
		assertThat(this.locks).isFree("account:42");

		assertThat(this.locks).doesNotHold("account:42");
		this.otherOwner.acquire("account:42", OPTIONS).close();
	}

	@Test
	void isFreeFailsWhenAnotherOwnerHoldsTheLock() throws Exception {
		this.otherOwner.acquire("account:42", OPTIONS);

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.locks).isFree("account:42"))
			.withMessageContaining("Expecting lock 'account:42' to be free, but another owner holds it");
	}

	@Test
	void isFreeFailsWhenTheServiceItselfHoldsTheLock() throws Exception {
		this.locks.acquire("account:42", OPTIONS);

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.locks).isFree("account:42"))
			.withMessageContaining("not to hold lock 'account:42'")
			.withMessageContaining("thread '" + Thread.currentThread().getName() + "'");
	}

}
