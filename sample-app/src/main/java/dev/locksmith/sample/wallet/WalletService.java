package dev.locksmith.sample.wallet;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.sample.wallet.WalletException.Reason;

/**
 * Moves money between accounts. Each change reads the balance, computes, and writes it back: a
 * read-modify-write that only the per-account lock keeps exact across instances. Every write
 * carries the fencing token of that account's lock, so a holder whose lease ran out can never
 * overwrite a newer one.
 */
@Service
public class WalletService {

	private final JdbcClient jdbc;

	private final Executor statementExecutor = CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS);

	public WalletService(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	public List<Account> accounts() {
		return this.jdbc.sql("SELECT id, balance, fence FROM account ORDER BY id").query(Account.class).list();
	}

	public Account account(String accountId) {
		return this.jdbc.sql("SELECT id, balance, fence FROM account WHERE id = ?")
			.param(accountId)
			.query(Account.class)
			.optional()
			.orElseThrow(() -> new WalletException(Reason.UNKNOWN_ACCOUNT, "No account '" + accountId + "'"));
	}

	/** Adds {@code cents}; {@code thinkTime} keeps the lock longer, to watch it in /actuator/locks. */
	@Transactional
	@DistributedLock(name = "account", key = "#accountId", ttl = "30s", waitTime = "${sample.account-lock.wait-time:10s}")
	public Account deposit(String accountId, long cents, Duration thinkTime) {
		Account account = account(accountId);
		pause(thinkTime);
		write(account.id(), account.balance() + cents);
		return account(accountId);
	}

	@Transactional
	@DistributedLock(name = "account", key = "#accountId", ttl = "30s", waitTime = "${sample.account-lock.wait-time:10s}")
	public Account withdraw(String accountId, long cents) {
		Account account = account(accountId);
		requireFunds(account, cents);
		write(account.id(), account.balance() - cents);
		return account(accountId);
	}

	/** Locks both accounts at once, in one canonical order, so opposite transfers never deadlock. */
	@Transactional
	@DistributedLock(name = "account", key = "{#from, #to}", ttl = "30s", waitTime = "${sample.account-lock.wait-time:10s}")
	public List<Account> transfer(String from, String to, long cents) {
		Account source = account(from);
		Account target = account(to);
		requireFunds(source, cents);
		write(source.id(), source.balance() - cents);
		write(target.id(), target.balance() + cents);
		return List.of(account(from), account(to));
	}

	/** Produces a statement asynchronously; the lock is held until the future completes. */
	@DistributedLock(name = "statement", key = "#accountId", ttl = "10s")
	public CompletableFuture<Statement> statement(String accountId) {
		long fencingToken = LockContext.current().map(LockHandle::fencingToken).orElseThrow();
		return CompletableFuture.supplyAsync(() -> new Statement(account(accountId), Instant.now(), fencingToken),
				this.statementExecutor);
	}

	/** Writes with the fencing token of this account's own lock: a transfer holds one token per account. */
	private void write(String accountId, long balance) {
		long token = LockContext.current().orElseThrow().fencingToken("account:" + accountId);
		int updated = this.jdbc.sql("UPDATE account SET balance = ?, fence = ? WHERE id = ? AND fence <= ?")
			.params(balance, token, accountId, token)
			.update();
		if (updated == 0) {
			throw new WalletException(Reason.STALE_LOCK,
					"Write to '" + accountId + "' with fencing token " + token + " rejected: a newer lock holder wrote");
		}
	}

	private static void requireFunds(Account account, long cents) {
		if (account.balance() < cents) {
			throw new WalletException(Reason.INSUFFICIENT_FUNDS,
					"Account '" + account.id() + "' holds " + account.balance() + " cents, less than " + cents);
		}
	}

	private static void pause(Duration thinkTime) {
		try {
			Thread.sleep(thinkTime.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while thinking", ex);
		}
	}

}
