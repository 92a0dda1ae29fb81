package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.ReactiveLockContext;

/**
 * The soak's asynchronous and reactive work under {@code @DistributedLock}: fenced work whose lock is
 * held until a {@code CompletionStage}, a {@code Mono} or a {@code Flux} completes, and unrenewed locks
 * whose work outlives their lease, which end with {@code LockLostException} (or, when the lock was busy, with
 * no value: skipped).
 */
class SoakLockedCalls {

	/** Longer than the unrenewed lease of the {@code outlive} methods. */
	static final Duration OUTLIVED = Duration.ofMillis(250);

	private final BiConsumer<LockHandle, List<String>> work;

	/** Runs {@code work} with the lock and keys it holds: {@code account:} and the keys given to the methods. */
	SoakLockedCalls(BiConsumer<LockHandle, List<String>> work) {
		this.work = work;
	}

	@DistributedLock(name = "account", key = "#p0", ttl = "600ms", waitTime = "1s", onBusy = OnBusy.SKIP)
	CompletionStage<Void> later(String key) {
		LockHandle lock = LockContext.current().orElseThrow();
		return CompletableFuture.runAsync(() -> this.work.accept(lock, keys(lock)));
	}

	@DistributedLock(name = "account", key = "#p0", ttl = "600ms", waitTime = "1s", onBusy = OnBusy.SKIP)
	Mono<Void> reactive(String key) {
		return ReactiveLockContext.current()
			.flatMap((lock) -> Mono.<Void>fromRunnable(() -> this.work.accept(lock, keys(lock)))
				.subscribeOn(Schedulers.boundedElastic()));
	}

	@DistributedLock(name = "account", key = "{#p0, #p1}", ttl = "600ms", waitTime = "1s", onBusy = OnBusy.SKIP)
	Flux<String> reactiveBoth(String first, String second) {
		return ReactiveLockContext.current()
			.flatMapMany((lock) -> Flux.fromIterable(keys(lock))
				.publishOn(Schedulers.boundedElastic())
				.doOnNext((key) -> this.work.accept(lock, List.of(key))));
	}

	@DistributedLock(name = "outlived", key = "#p0", ttl = "150ms", renew = false, waitTime = "0s", onBusy = OnBusy.SKIP)
	CompletionStage<Boolean> outliveLater(String key) {
		return CompletableFuture.supplyAsync(() -> true,
				CompletableFuture.delayedExecutor(OUTLIVED.toMillis(), TimeUnit.MILLISECONDS));
	}

	@DistributedLock(name = "outlived", key = "#p0", ttl = "150ms", renew = false, waitTime = "0s", onBusy = OnBusy.SKIP)
	Mono<Boolean> outlive(String key) {
		return Mono.delay(OUTLIVED).thenReturn(true);
	}

	private static List<String> keys(LockHandle lock) {
		return List.copyOf(lock.fencingTokens().keySet());
	}

}
