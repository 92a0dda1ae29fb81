package dev.locksmith.redis;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.test.contract.LockStoreContractTests;

/**
 * The lock contract on Redlock over three real {@code redis-server} processes; its fixtures are those of
 * {@code lock-spring-boot-autoconfigure}'s tests ({@code locksmith-test-fixtures}).
 */
@Tag("slow")
class RedlockLockStoreContractTests extends LockStoreContractTests {

	@RegisterExtension
	static final RedisServers servers = new RedisServers();

	private final RedlockFixture redlock = new RedlockFixture();

	/** Redlock's waiters stand in no queue: a release wakes them all and one of them wins. */
	@Override
	protected boolean servesWaitersInArrivalOrder() {
		return false;
	}

	/** Redlock refuses read locks and permits: its quorum of independent servers keeps no shared holders. */
	@Override
	protected boolean grantsShares() {
		return false;
	}

	@Override
	protected DefaultLockService.Builder newServiceBuilder() {
		return this.redlock.serviceBuilder(servers.first(3));
	}

	@AfterEach
	void closeConnections() throws Exception {
		this.redlock.close();
	}

}
