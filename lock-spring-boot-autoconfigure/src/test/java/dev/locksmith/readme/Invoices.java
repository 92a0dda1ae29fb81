package dev.locksmith.readme;

// tag::lock-service[]
import java.time.Duration;

import org.springframework.stereotype.Service;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

@Service
class Invoices {

	private final LockService locks;

	Invoices(LockService locks) {
		this.locks = locks;
	}

	void send(String invoiceId) throws InterruptedException {
		LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(30))
				.withWaitTime(Duration.ofSeconds(5))
				.withName("invoice");
		try (LockHandle lock = this.locks.acquire("invoice:" + invoiceId, options)) {   // LockBusyException after 5s
			deliver(invoiceId, lock.fencingToken());
		}
	}

	String dailyReport() {
		return this.locks.callLocked("report:daily", this.locks.options().withName("report"),
				() -> "built while holding the lock");
	}

	private void deliver(String invoiceId, long fencingToken) {
		// send the invoice; pass the token to whatever rejects stale writers
	}

}
// end::lock-service[]
