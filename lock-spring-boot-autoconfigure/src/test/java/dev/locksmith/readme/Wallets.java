package dev.locksmith.readme;

// tag::annotation[]
import java.util.Optional;

import org.springframework.stereotype.Service;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;

@Service
class Wallets {

	@DistributedLock(name = "account", key = "#accountId", ttl = "30s")
	public void withdraw(String accountId, long cents) {
		// read the balance, subtract, write it back: one caller per account at a time
	}

	@DistributedLock(name = "account", key = "{#from, #to}", waitTime = "${wallet.lock-wait:5s}")
	public void transfer(String from, String to, long cents) {
		// locks both accounts in one call, all or nothing, in sorted order: opposite transfers take turns
	}

	@DistributedLock(name = "nightly-report", onBusy = OnBusy.SKIP)
	public Optional<String> nightlyReport() {
		return Optional.of("report");   // Optional.empty() when another instance is running it
	}

}
// end::annotation[]
