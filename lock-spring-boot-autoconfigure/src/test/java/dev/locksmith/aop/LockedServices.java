package dev.locksmith.aop;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Lazy;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockContext;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.ReactiveLockContext;

/** Annotated beans that the aspect tests call through their proxies. */
final class LockedServices {

	private LockedServices() {
	}

	/** A service behind an interface, proxied with a JDK proxy or CGLIB alike. */
	interface Accounts {

		@DistributedLock(key = "#accountId", ttl = "30s")
		long withdraw(String accountId, long amount);

		@DistributedLock(name = "Accounts.balance", key = "#p0")
		long balance(String accountId);

	}

	/** The calls that the services ran, in order; not proxied, so tests read it directly. */
	static class CallLog {

		final List<String> calls = new CopyOnWriteArrayList<>();

	}

	/** Records every call it runs and returns the fencing token it ran under. */
	static class AccountsImpl implements Accounts {

		private final List<String> calls;

		AccountsImpl(CallLog log) {
			this.calls = log.calls;
		}

		@Override
		public long withdraw(String accountId, long amount) {
			this.calls.add("withdraw " + accountId);
			return LockContext.current().map(LockHandle::fencingToken).orElse(-1L);
		}

		@Override
		public long balance(String accountId) {
			this.calls.add("balance " + accountId);
			return LockContext.current().map(LockHandle::fencingToken).orElse(-1L);
		}

	}

	/** A customer, for nested key expressions. */
	record Customer(String id) {
	}

	/** An order, for nested key expressions. */
	record Order(String number, Customer customer) {
	}

	/** An entity without a value-based toString(): a key of its own per instance. */
	static class Cart {

	}

	/** Supplies a key part, for bean references in key expressions. */
	static class Tenant {

		public String id() {
			return "acme";
		}

	}

	/** A class-based (CGLIB) bean with every kind of key and return type. */
	static class Shop {

		private final List<String> calls;

		@Autowired
		@Lazy
		Shop self;

		Shop(CallLog log) {
			this.calls = log.calls;
		}

		@DistributedLock(key = "#order.customer.id")
		public String ship(Order order) {
			this.calls.add("ship " + order.number());
			return LockContext.current().orElseThrow().key();
		}

		@DistributedLock(key = "@tenant.id() + '/' + #sku")
		public String restock(String sku) {
			this.calls.add("restock " + sku);
			return LockContext.current().orElseThrow().key();
		}

		@DistributedLock(name = "transfer", key = "{#from, #to}", waitTime = "10s")
		public void transfer(String from, String to) {
			this.calls.add("transfer " + from + "->" + to);
		}

		@DistributedLock(name = "ids", key = "#ids")
		public int lockAll(String[] ids) {
			return ids.length;
		}

		@DistributedLock(name = "ledger", key = "#account")
		public long outer(String account) {
			return this.self.inner(account);
		}

		@DistributedLock(name = "ledger", key = "#account")
		public long inner(String account) {
			this.calls.add("inner " + account);
			return LockContext.current().orElseThrow().fencingToken();
		}

		@DistributedLock(name = "ledger", key = "#account", mode = LockMode.READ)
		public long readThenWrite(String account) {
			return this.self.inner(account);
		}

		@DistributedLock(name = "ledger", key = "#account")
		public long writeThenRead(String account) {
			return this.self.read(account);
		}

		@DistributedLock(name = "ledger", key = "#account", mode = LockMode.READ)
		public long read(String account) {
			return LockContext.current().orElseThrow().fencingToken();
		}

		@DistributedLock(name = "slow", key = "#id")
		public String slow(String id, CountDownLatch started, CountDownLatch finish) throws InterruptedException {
			started.countDown();
			finish.await(30, TimeUnit.SECONDS);
			return "done " + id;
		}

		@DistributedLock(name = "invoice", key = "#id", onBusy = OnBusy.SKIP)
		public String skipInvoice(String id) {
			this.calls.add("skipInvoice " + id);
			return "ran";
		}

		@DistributedLock(name = "report", onBusy = OnBusy.SKIP)
		public String skipString() {
			this.calls.add("skipString");
			return "ran";
		}

		@DistributedLock(name = "report", onBusy = OnBusy.SKIP)
		public Optional<String> skipOptional() {
			this.calls.add("skipOptional");
			return Optional.of("ran");
		}

		@DistributedLock(name = "report", onBusy = OnBusy.SKIP)
		public void skipVoid() {
			this.calls.add("skipVoid");
		}

		@DistributedLock(name = "report", onBusy = OnBusy.SKIP)
		public CompletableFuture<String> skipFuture() {
			this.calls.add("skipFuture");
			return CompletableFuture.completedFuture("ran");
		}

		@DistributedLock(name = "report", onBusy = OnBusy.SKIP)
		public Mono<String> skipMono() {
			return Mono.fromCallable(() -> {
				this.calls.add("skipMono");
				return "ran";
			});
		}

		@DistributedLock(name = "report", onBusy = OnBusy.SKIP)
		public Flux<String> skipFlux() {
			return Flux.defer(() -> {
				this.calls.add("skipFlux");
				return Flux.just("r", "a", "n");
			});
		}

		@DistributedLock(name = "report")
		public String throwWhenBusy() {
			this.calls.add("throwWhenBusy");
			return "ran";
		}

		@DistributedLock(name = "async", key = "#id")
		public CompletableFuture<String> async(String id, CompletableFuture<String> result) {
			return result;
		}

		@DistributedLock(name = "reactive", key = "#id")
		public Mono<String> reactive(String id, Mono<String> result) {
			return result;
		}

		@DistributedLock(name = "lease", ttl = "${shop.lease}")
		public long leaseMillis() {
			LockHandle handle = LockContext.current().orElseThrow();
			return handle.expiresAt().toEpochMilli() - handle.acquiredAt().toEpochMilli();
		}

		@DistributedLock(name = "patient", waitTime = "${shop.wait}")
		public void patient() {
		}

		@DistributedLock(name = "nullable", key = "#id")
		public void nullableKey(String id) {
			this.calls.add("nullableKey");
		}

		@DistributedLock(name = "cart", key = "#cart")
		public void checkout(Cart cart) {
			this.calls.add("checkout");
		}

	}

	/** Work whose lock must live exactly as long as the work: futures, reactive streams and nested calls. */
	static class Jobs {

		@Autowired
		@Lazy
		Jobs self;

		@DistributedLock(name = "job", key = "#id")
		public CompletableFuture<String> async(String id, CompletableFuture<String> work) {
			return work;
		}

		@DistributedLock(name = "job", key = "#id")
		public void startAsync(String id, CompletableFuture<String> work) {
			this.self.async(id, work);
		}

		@DistributedLock(name = "job", key = "#id", ttl = "1s")
		public Mono<String> reactive(String id, Mono<String> work) {
			return work;
		}

		@DistributedLock(name = "job", key = "#id")
		public Mono<List<Long>> tokens(String id) {
			long assembled = LockContext.current().orElseThrow().fencingToken();
			return Mono.delay(Duration.ofMillis(1))
				.then(ReactiveLockContext.current())
				.map((handle) -> List.of(assembled, handle.fencingToken()));
		}

		@DistributedLock(name = "job", key = "#id")
		public Flux<Long> tokenStream(String id) {
			return Flux.range(1, 3)
				.delayElements(Duration.ofMillis(1))
				.concatMap((i) -> ReactiveLockContext.current().map(LockHandle::fencingToken));
		}

		@DistributedLock(name = "job", key = "#id")
		public Mono<List<Long>> outerReactive(String id) {
			return ReactiveLockContext.current()
				.delayElement(Duration.ofMillis(1))
				.flatMap((outer) -> this.self.innerReactive(id).map((inner) -> List.of(outer.fencingToken(), inner)));
		}

		@DistributedLock(name = "job", key = "#id")
		public Mono<Long> innerReactive(String id) {
			return ReactiveLockContext.current().map(LockHandle::fencingToken);
		}

		@DistributedLock(name = "job", key = "#held")
		public void holdThenLockAll(String held, List<String> all, Runnable insideAll, Runnable afterAll) {
			this.self.lockAll(all, insideAll);
			afterAll.run();
		}

		/** Holds {@code held}, runs {@code beforeAll}, then locks {@code all} in a nested call. */
		@DistributedLock(name = "job", key = "#held")
		public void holdThenWaitForAll(String held, List<String> all, Runnable beforeAll) {
			beforeAll.run();
			this.self.lockAll(all, () -> {
			});
		}

		@DistributedLock(name = "job", key = "#ids")
		public void lockAll(List<String> ids, Runnable inside) {
			inside.run();
		}

	}

}
