package dev.locksmith.aop;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.task.AsyncTaskExecutor;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.autoconfigure.LocksmithAopAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Ten thousand virtual threads contend for a hundred keys through {@code @DistributedLock}: every
 * increment counts exactly once, and no virtual thread is pinned to its carrier (read from the
 * JDK's own {@code jdk.VirtualThreadPinned} events). Runs on Java 21 and later, where Spring Boot's
 * {@code spring.threads.virtual.enabled} gives virtual threads. Ten thousand first attempts at once
 * queue up on the one connection for lock scripts, longer than the default {@code redis-timeout} on a
 * small machine, so the test allows a minute per store call.
 */
@EnabledForJreRange(min = JRE.JAVA_21, disabledReason = "virtual threads need Java 21 or later")
@Tag("slow")
class VirtualThreadLoadTests {

	private static final int THREADS = 10_000;

	private static final int KEYS = 100;

	/** The key every waiter of the one-lock test asks for, counted beside the hundred others. */
	private static final int HOT = KEYS + 1;

	private static final String PINNED = "jdk.VirtualThreadPinned";

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@Test
	void tenThousandVirtualThreadsOnAHundredKeysCountExactlyWithoutPinning() {
		runner().run((context) -> {
			AsyncTaskExecutor executor = context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
			Counters counters = context.getBean(Counters.class);
			executor.submit(() -> counters.increment(KEYS)).get(1, TimeUnit.MINUTES);
			List<RecordedEvent> pinned = pinnedWhile(() -> {
				List<Future<?>> calls = new ArrayList<>();
				for (int i = 0; i < THREADS; i++) {
					int key = i % KEYS;
					calls.add(executor.submit(() -> counters.increment(key)));
				}
				awaitAll(calls);
			});

			assertThat(pinned).as("pinned virtual threads").isEmpty();
			assertThat(IntStream.range(0, KEYS).map(counters::count)).containsOnly(THREADS / KEYS);
			assertThat(counters.overlaps()).isZero();
			assertThat(counters.virtualCalls()).isEqualTo(THREADS + 1);
		});
	}

	/**
	 * Ten thousand virtual threads wait for one held lock at once, parked without pinning a carrier, and
	 * each is served once when it frees; the heap each waiter costs is printed (docs/benchmarks.md).
	 */
	@Test
	void tenThousandVirtualThreadsWaitingForOneLockAreEachServedOnceWithoutPinning() {
		runner().run((context) -> {
			AsyncTaskExecutor executor = context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
			Counters counters = context.getBean(Counters.class);
			CountDownLatch release = new CountDownLatch(1);
			Future<?> holder = executor.submit(() -> {
				counters.hold(HOT, release);
				return null;
			});
			await().atMost(Duration.ofMinutes(1)).until(() -> counters.count(HOT) == 1);
			long heapBefore = usedHeapAfterGc();
			List<RecordedEvent> pinned = pinnedWhile(() -> {
				List<Future<?>> calls = new ArrayList<>();
				for (int i = 0; i < THREADS; i++) {
					calls.add(executor.submit(() -> counters.increment(HOT)));
				}
				await().atMost(Duration.ofMinutes(3)).until(() -> queued() == THREADS);
				long perWaiter = (usedHeapAfterGc() - heapBefore) / THREADS;
				System.out.printf("[virtual-threads] %d virtual threads wait for one lock: %d bytes of heap each%n",
						THREADS, perWaiter);
				release.countDown();
				holder.get(1, TimeUnit.MINUTES);
				awaitAll(calls);
			});

			assertThat(pinned).as("pinned virtual threads").isEmpty();
			assertThat(counters.count(HOT)).as("the holder and each waiter once").isEqualTo(THREADS + 1);
			assertThat(counters.overlaps()).isZero();
			assertThat(queued()).isZero();
		});
	}

	private static ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
					TaskExecutionAutoConfiguration.class, LocksmithAutoConfiguration.class,
					LocksmithAopAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + redisServer.server().port(),
					"spring.threads.virtual.enabled=true", "locksmith.redis-timeout=1m")
			.withBean(Counters.class);
	}

	/** The {@code jdk.VirtualThreadPinned} events recorded while {@code work} ran. */
	private static List<RecordedEvent> pinnedWhile(Work work) throws Exception {
		try (Recording recording = new Recording()) {
			recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
			recording.start();
			work.run();
			recording.stop();
			return events(recording, PINNED);
		}
	}

	private static void awaitAll(List<Future<?>> calls) throws Exception {
		for (Future<?> call : calls) {
			call.get(5, TimeUnit.MINUTES);
		}
	}

	/** How many waiters the lock store's queues hold, as Redis counts them. */
	private static long queued() {
		return Long.parseLong(redisServer.server()
			.command("EVAL", "local n = 0 for _, q in ipairs(redis.call('KEYS', 'lock:queue:*')) do "
					+ "n = n + redis.call('LLEN', q) end return n", "0"));
	}

	private static long usedHeapAfterGc() {
		System.gc();
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

	/** What runs while pinning is recorded. */
	@FunctionalInterface
	private interface Work {

		void run() throws Exception;

	}

	/** The recorded events of type {@code name}; libraries such as Lettuce record events of their own. */
	private static List<RecordedEvent> events(Recording recording, String name) throws Exception {
		Path file = Files.createTempFile("pinning", ".jfr");
		try {
			recording.dump(file);
			return RecordingFile.readAllEvents(file)
				.stream()
				.filter((event) -> event.getEventType().getName().equals(name))
				.toList();
		}
		finally {
			Files.delete(file);
		}
	}

	/**
	 * Counts increments per key with a read and a separate write, so that two holders at once lose one;
	 * read through methods, since the bean is a class proxy.
	 */
	static class Counters {

		private final AtomicIntegerArray counts = new AtomicIntegerArray(HOT + 1);

		private final AtomicIntegerArray inside = new AtomicIntegerArray(HOT + 1);

		private final AtomicInteger overlaps = new AtomicInteger();

		private final AtomicInteger virtualCalls = new AtomicInteger();

		public int count(int key) {
			return this.counts.get(key);
		}

		public int overlaps() {
			return this.overlaps.get();
		}

		public int virtualCalls() {
			return this.virtualCalls.get();
		}

		/** Counts once on {@code key}, then holds its lock until {@code release}. */
		@DistributedLock(name = "counter", key = "#key", waitTime = "5m")
		public void hold(int key, CountDownLatch release) throws InterruptedException {
			this.counts.incrementAndGet(key);
			release.await();
		}

		@DistributedLock(name = "counter", key = "#key", waitTime = "5m")
		public void increment(int key) {
			if (this.inside.incrementAndGet(key) != 1) {
				this.overlaps.incrementAndGet();
			}
			if (Thread.currentThread().toString().startsWith("VirtualThread")) {
				this.virtualCalls.incrementAndGet();
			}
			int before = this.counts.get(key);
			Thread.yield();
			this.counts.set(key, before + 1);
			this.inside.decrementAndGet(key);
		}

	}

}
