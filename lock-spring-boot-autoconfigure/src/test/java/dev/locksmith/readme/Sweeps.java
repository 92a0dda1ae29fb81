package dev.locksmith.readme;

// tag::lost[]
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.stereotype.Service;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;

@Service
class Sweeps {

	@DistributedLock(name = "sweep", ttl = "30s")
	public void sweep(List<String> batches) {
		LockHandle lock = LockContext.current().orElseThrow();
		CompletableFuture<Void> lost = lock.lost().toCompletableFuture();
		for (String batch : batches) {
			if (lost.isDone()) {
				return;   // the lease is gone: stop before the next write (the call still ends in LockLostException)
			}
			process(batch);
		}
	}

	private void process(String batch) {
	}

}
// end::lost[]
