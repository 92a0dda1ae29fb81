package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.Test;

import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.testing.RedisServer;

import static dev.locksmith.redis.RedlockFixture.KEYS;
import static org.assertj.core.api.Assertions.assertThat;

/** Redlock's validity {@code ttl - elapsed - drift}, with the elapsed time set by an injected clock. */
class LeaseValidityTests extends RedlockTestSupport {

	private static final Duration TTL = Duration.ofSeconds(1);

	/** 1% of the ttl plus 2ms. */
	private static final Duration VALIDITY = Duration.ofMillis(988);

	@Test
	void theDriftIsOnePercentOfTheTtlPlusTwoMilliseconds() {
		assertThat(LeaseValidity.drift(TTL)).isEqualTo(Duration.ofMillis(12));
		assertThat(LeaseValidity.fromRequest(TTL)).isEqualTo(VALIDITY);
		assertThat(LeaseValidity.remaining(TTL, Duration.ofMillis(100).toNanos())).isEqualTo(Duration.ofMillis(888));
	}

	@Test
	void aQuorumGrantIsHeldWhileSomeValidityIsLeft() throws Exception {
		RedlockLockBackend backend = backendTaking(VALIDITY.minusNanos(1));

		AcquireResult result = backend.tryAcquire(TestOwners.request(List.of("job"), "owner-1", TTL, Duration.ZERO)).get();

		assertThat(result.acquired()).isTrue();
		assertThat(servers.first(3)).allSatisfy(
				(node) -> assertThat(node.command("GET", KEYS.lockKey("job"))).isEqualTo("owner-1"));
	}

	@Test
	void aQuorumGrantThatTookTheWholeValidityIsRefusedAndReleasedEverywhere() throws Exception {
		RedlockLockBackend backend = backendTaking(VALIDITY);

		AcquireResult result = backend.tryAcquire(TestOwners.request(List.of("job"), "owner-1", TTL, Duration.ZERO)).get();

		assertThat(result.acquired()).isFalse();
		assertThat(result.retryAfter()).isPositive();
		assertThat(servers.first(3)).allSatisfy(
				(node) -> assertThat(node.command("EXISTS", KEYS.lockKey("job"))).isEqualTo("0"));
	}

	@Test
	void aRenewalConfirmedAfterItsValidityDoesNotCount() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		nodes.forEach((node) -> node.command("SET", KEYS.lockKey("job"), "owner-1", "PX", "30000"));
		List<LeaseExtension> lease = List.of(new LeaseExtension("job", TestOwners.owner("owner-1"), TTL));

		assertThat(backendTaking(VALIDITY.minusNanos(1)).extend(lease).get(0).get()).isTrue();
		assertThat(backendTaking(VALIDITY).extend(lease).get(0).get()).isFalse();
	}

	/** A backend on three servers whose clock says each call took {@code elapsed}. */
	private RedlockLockBackend backendTaking(Duration elapsed) {
		return this.redlock.backend(servers.first(3), (builder) -> builder.nanoClock(clockTaking(elapsed)));
	}

	/** Reads 0 first, then {@code elapsed} later, then as much again at each further read. */
	private static LongSupplier clockTaking(Duration elapsed) {
		AtomicInteger reads = new AtomicInteger();
		return () -> reads.getAndIncrement() * elapsed.toNanos();
	}

}
