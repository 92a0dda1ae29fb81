package dev.locksmith.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;

/**
 * A separate JVM for {@link SharedLockProcessTests}: one writer and two readers of the key {@code doc},
 * and two holders of its 2 permits of the key {@code pdf}, each a thread taking its lock over and over,
 * and recording each critical section on a checker Redis that counts overlaps. Connected and warmed up
 * by taking each lock once, it reports
 * {@code WORKER READY} and waits for a line on standard input to start; it reports {@code WORKER DONE}
 * when its time is up. Arguments: Redis port, checker Redis port, milliseconds to run.
 */
public final class ModesWorker {

	/** The permits of {@code pdf}. */
	static final int PERMITS = 2;

	private static final RedisScript<Long> ENTER = RedisScript
		.of(new ClassPathResource("dev/locksmith/modes/enter.lua"), Long.class);

	private static final LockOptions WRITE = LockOptions.ofTtl(Duration.ofSeconds(10)).withWaitTime(Duration.ofSeconds(30));

	private ModesWorker() {
	}

	public static void main(String[] args) throws Exception {
		LettuceConnectionFactory checkerConnections = RedisServer.connectionFactory(Integer.parseInt(args[1]));
		StringRedisTemplate checker = new StringRedisTemplate(checkerConnections);
		ExecutorService threads = Executors.newCachedThreadPool();
		try (WorkerLocks worker = new WorkerLocks(Integer.parseInt(args[0]), Duration.ofSeconds(5))) {
			for (LockOptions options : List.of(WRITE, WRITE.withMode(LockMode.READ))) {
				worker.locks.runLocked("doc", options, () -> checker.hasKey("warm-up"));
			}
			worker.locks.runLocked("pdf", WRITE.withPermits(PERMITS), () -> checker.hasKey("warm-up"));
			report("READY");
			new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
			long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[2]));
			List<CompletableFuture<Void>> holders = new ArrayList<>();
			holders.add(holder(worker, checker, "doc", WRITE, "write", until, threads));
			for (int i = 0; i < 2; i++) {
				holders.add(holder(worker, checker, "doc", WRITE.withMode(LockMode.READ), "0", until, threads));
				holders.add(holder(worker, checker, "pdf", WRITE.withPermits(PERMITS), Integer.toString(PERMITS), until,
						threads));
			}
			CompletableFuture.allOf(holders.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
		}
		threads.shutdown();
		checkerConnections.destroy();
		report("DONE");
		System.exit(0);
	}

	private static void report(String line) {
		System.out.println("WORKER " + line);
		System.out.flush();
	}

	/** A thread that takes {@code key} with {@code options} until {@code until}, each time inside for 1 to 5 ms. */
	private static CompletableFuture<Void> holder(WorkerLocks worker, StringRedisTemplate checker, String key,
			LockOptions options, String kind, long until, ExecutorService threads) {
		String inside = kind.equals("write") ? "writers" : "shares";
		return CompletableFuture.runAsync(() -> {
			while (System.nanoTime() < until) {
				worker.locks.runLocked(key, options, () -> {
					checker.execute(ENTER, List.of("writers:" + key, "shares:" + key, "stats:" + key), kind);
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ThreadLocalRandom.current().nextInt(1, 6)));
					checker.opsForValue().decrement(inside + ":" + key);
				});
			}
		}, threads);
	}

}
