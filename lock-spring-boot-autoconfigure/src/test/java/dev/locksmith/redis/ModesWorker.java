package dev.locksmith.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.testing.RedisServer;

/**
 * A separate JVM for {@link SharedLockProcessTests}: the {@link ModesLoad} of one lock engine. Connected
 * and warmed up by taking each lock once, it reports {@code WORKER READY} and waits for a line on standard
 * input to start; it reports {@code WORKER DONE} when its time is up. Arguments: Redis port, checker Redis
 * port, milliseconds to run.
 */
public final class ModesWorker {

	private ModesWorker() {
	}

	public static void main(String[] args) throws Exception {
		LettuceConnectionFactory checkerConnections = RedisServer.connectionFactory(Integer.parseInt(args[1]));
		StringRedisTemplate checker = new StringRedisTemplate(checkerConnections);
		ExecutorService threads = Executors.newCachedThreadPool();
		try (WorkerLocks worker = new WorkerLocks(Integer.parseInt(args[0]), Duration.ofSeconds(5))) {
			ModesLoad.warmUp(worker.locks, checker);
			report("READY");
			new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
			long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[2]));
			ModesLoad.run(worker.locks, checker, until, threads).get(2, TimeUnit.MINUTES);
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

}
