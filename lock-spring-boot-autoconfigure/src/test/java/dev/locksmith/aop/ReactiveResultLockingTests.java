package dev.locksmith.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.reactivestreams.Publisher;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Flux;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reactive results beyond {@code Mono} and {@code Flux}, recognised through Spring's
 * {@code ReactiveAdapterRegistry}: each keeps its lock for its subscription, not only while the method
 * assembles it, and is returned as the type the method declares.
 */
class ReactiveResultLockingTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final ApplicationContextRunner runner = AspectContexts.onRedis(redisServer.server())
		.withBean(Exports.class);

	@Test
	void anRxJavaSingleIsLockedWhileItsSubscriptionRuns() {
		this.runner.run((context) -> {
			Single<String> export = context.getBean(Exports.class).single(() -> observe(context));
			assertThat(lockInRedis()).as("not locked before subscription").isEqualTo("0");
			assertThat(export.blockingGet()).isEqualTo("held: 1, second owner refused: true");
			assertThat(lockInRedis()).as("released after completion").isEqualTo("0");
		});
	}

	@Test
	void anRxJavaFlowableIsLockedUntilItsLastItem() {
		this.runner.run((context) -> {
			Flowable<String> export = context.getBean(Exports.class).flowable(() -> observe(context));
			assertThat(lockInRedis()).isEqualTo("0");
			assertThat(export.toList().blockingGet()).containsExactly("first",
					"held: 1, second owner refused: true");
			assertThat(lockInRedis()).isEqualTo("0");
		});
	}

	@Test
	void aPublisherResultIsLockedWhileItsSubscriptionRuns() {
		this.runner.run((context) -> {
			Publisher<String> export = context.getBean(Exports.class).publisher(() -> observe(context));
			assertThat(Flux.from(export).collectList().block(Duration.ofSeconds(10)))
				.isEqualTo(List.of("held: 1, second owner refused: true"));
			assertThat(lockInRedis()).isEqualTo("0");
		});
	}

	/** What the subscription sees of its lock: the key in Redis, and a second owner's try. */
	private static String observe(AssertableApplicationContext context) throws InterruptedException {
		boolean refused = context.getBean(LockService.class)
			.tryAcquire("export", LockOptions.ofTtl(Duration.ofSeconds(30)))
			.isEmpty();
		return "held: " + lockInRedis() + ", second owner refused: " + refused;
	}

	private static String lockInRedis() {
		return redisServer.server().command("EXISTS", "lock:{export}");
	}

	static class Exports {

		@DistributedLock(name = "export")
		public Single<String> single(Callable<String> work) {
			return Single.fromCallable(work);
		}

		@DistributedLock(name = "export")
		public Flowable<String> flowable(Callable<String> work) {
			return Flowable.just("first").concatWith(Single.fromCallable(work));
		}

		@DistributedLock(name = "export")
		public Publisher<String> publisher(Callable<String> work) {
			return Flux.defer(() -> Flux.just(call(work)));
		}

		private static String call(Callable<String> work) {
			try {
				return work.call();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
