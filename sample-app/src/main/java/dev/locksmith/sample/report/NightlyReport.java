package dev.locksmith.sample.report;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockService;
import dev.locksmith.sample.wallet.Account;
import dev.locksmith.sample.wallet.WalletService;

/**
 * Sums every balance, slowly. Every instance schedules it, but the lock lets one run it and the
 * others skip; the run lasts longer than the lease, which renewal keeps extending.
 */
@Component
public class NightlyReport {

	private static final Log logger = LogFactory.getLog(NightlyReport.class);

	private final WalletService wallet;

	private final LockService locks;

	private final Duration duration;

	NightlyReport(WalletService wallet, LockService locks, @Value("${sample.report.duration:5s}") Duration duration) {
		this.wallet = wallet;
		this.locks = locks;
		this.duration = duration;
	}

	/** Runs the report unless another instance is running it: then it is empty. */
	@Scheduled(cron = "${sample.report.cron:0 0 2 * * *}")
	@DistributedLock(name = "nightly-report", ttl = "2s", onBusy = OnBusy.SKIP)
	public Optional<Report> run() {
		Instant startedAt = Instant.now();
		List<Account> accounts = this.wallet.accounts();
		work();
		long renewals = this.locks.heldLocks()
			.stream()
			.filter((lock) -> lock.key().equals("nightly-report"))
			.mapToLong(LockInfo::renewals)
			.sum();
		Report report = new Report(accounts.stream().mapToLong(Account::balance).sum(), accounts.size(), startedAt,
				Instant.now(), renewals);
		logger.info("Nightly report done: " + report);
		return Optional.of(report);
	}

	private void work() {
		try {
			Thread.sleep(this.duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while reporting", ex);
		}
	}

}
