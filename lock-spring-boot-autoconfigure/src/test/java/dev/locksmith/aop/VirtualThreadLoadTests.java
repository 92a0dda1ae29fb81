package dev.locksmith.aop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
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

/**
 * Ten thousand virtual threads contend for a hundred keys through {@code @DistributedLock}: every
 * increment counts exactly once, and no virtual thread is pinned to its carrier (read from the
 * JDK's own {@code jdk.VirtualThreadPinned} events). Runs on Java 21 and later, where Spring Boot's
 * {@code spring.threads.virtual.enabled} gives virtual threads. Ten thousand first attempts at once
 * queue up on the one connection for lock scripts, longer than the default {@code redis-timeout} on a
 * small machine, so the test allows a minute per store call.
 */
@EnabledForJreRange(min = JRE.JAVA_21, disabledReason = "virtual threads need Java 21 or later")
class VirtualThreadLoadTests {

	private static final int THREADS = 10_000;

	private static final int KEYS = 100;

	private static final String PINNED = "jdk.VirtualThreadPinned";

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@Test
	void tenThousandVirtualThreadsOnAHundredKeysCountExactlyWithoutPinning() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
					TaskExecutionAutoConfiguration.class, LocksmithAutoConfiguration.class,
					LocksmithAopAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + redisServer.server().port(),
					"spring.threads.virtual.enabled=true", "locksmith.redis-timeout=1m")
			.withBean(Counters.class)
			.run((context) -> {
				AsyncTaskExecutor executor = context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
				Counters counters = context.getBean(Counters.class);
				executor.submit(() -> counters.increment(KEYS)).get(1, TimeUnit.MINUTES);
				List<RecordedEvent> pinned;
				try (Recording recording = new Recording()) {
					recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
					recording.start();
					List<Future<?>> calls = new ArrayList<>();
					for (int i = 0; i < THREADS; i++) {
						int key = i % KEYS;
						calls.add(executor.submit(() -> counters.increment(key)));
					}
					for (Future<?> call : calls) {
						call.get(5, TimeUnit.MINUTES);
					}
					recording.stop();
					pinned = events(recording, PINNED);
				}

				assertThat(pinned).as("pinned virtual threads").isEmpty();
				assertThat(IntStream.range(0, KEYS).map(counters::count)).containsOnly(THREADS / KEYS);
				assertThat(counters.overlaps()).isZero();
				assertThat(counters.virtualCalls()).isEqualTo(THREADS + 1);
			});
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

		private final AtomicIntegerArray counts = new AtomicIntegerArray(KEYS + 1);

		private final AtomicIntegerArray inside = new AtomicIntegerArray(KEYS + 1);

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
