package dev.locksmith.redis;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.OwnerEntries;
import dev.locksmith.core.LockShare;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The owners as the Redis scripts keep them, byte for byte as before the typed SPI: a change here is a change of
 * the format in Redis, which processes of two versions share during a rolling upgrade.
 */
class OwnerEntriesTests {

	@Test
	void anOwnerIsWrittenAsItsTokenAfterItsShare() {
		assertThat(OwnerEntries.of(LockOwner.exclusive("node-1:ab12;job"))).isEqualTo("node-1:ab12;job");
		assertThat(OwnerEntries.of(new LockOwner("node-1:ab12", LockShare.READ))).isEqualTo("@read/node-1:ab12");
		assertThat(OwnerEntries.of(new LockOwner("node-1:ab12", LockShare.permits(4))))
			.isEqualTo("@permits=4/node-1:ab12");
	}

	@Test
	void aHandOverNoticeNamesItsWaitersTokenWithoutTheShare() {
		List<String> waiters = new ArrayList<>();
		for (String waiter : List.of("node-1:ab12;job", "@read/node-1:ab12;job", "@permits=4/node-1:ab12",
				"node-1:ab12;order%20released", "node-1:ab12;name+released")) {
			HandOverMessages.deliver("job", "2000:7:" + waiter,
					(key, ownerToken, claimLease, fencingToken) -> waiters.add(ownerToken));
		}
		assertThat(waiters).as("a notice names a queued waiter, never a released holder: its token is whole")
			.containsExactly("node-1:ab12;job", "node-1:ab12;job", "node-1:ab12", "node-1:ab12;order%20released",
					"node-1:ab12;name+released");
	}

	@Test
	void aListedHolderLosesTheMarkOfALockReleasedBeforeItsMinimumHold() {
		assertThat(OwnerEntries.holderOf("node-1:ab12;job+released")).isEqualTo("node-1:ab12;job");
		assertThat(OwnerEntries.holderOf("@read/node-1:ab12+released")).isEqualTo("node-1:ab12");
		assertThat(OwnerEntries.typed("@read")).isEqualTo(LockShare.READ);
		assertThat(OwnerEntries.typed("@permits=3")).isEqualTo(LockShare.permits(3));
	}

}
