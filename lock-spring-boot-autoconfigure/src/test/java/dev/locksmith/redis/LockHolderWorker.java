package dev.locksmith.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.TimeBoundedLockBackend;

/**
 * A separate JVM that holds a renewed lock while it works, for {@link LeaseRenewalProcessTests}.
 * It reports on standard output, each line starting with {@code WORKER}. Arguments: Redis port, lock
 * key, lease in ms, then either {@code work <ms>} (works that long, then releases after a line on
 * standard input) or {@code fenced-write} (waits for a line on standard input, then writes through
 * {@link RedisFencedValues}).
 */
public final class LockHolderWorker {

	static final String FENCED_RESOURCE = "test:resource";

	private LockHolderWorker() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		String key = args[1];
		Duration lease = Duration.ofMillis(Long.parseLong(args[2]));
		LettuceConnectionFactory connections = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port));
		connections.afterPropertiesSet();
		connections.start();
		DefaultLockService locks = DefaultLockService
			.builder(new TimeBoundedLockBackend(new RedisLockBackend(connections, new RedisLockKeys("lock:")),
					Duration.ofSeconds(1)))
			.build();
		RedisFencedValues resource = new RedisFencedValues(connections);
		try {
			locks.runLocked(key, LockOptions.ofTtl(lease), () -> {
				LockHandle handle = LockContext.current().orElseThrow();
				report("ACQUIRED " + handle.fencingToken());
				if (args[3].equals("work")) {
					pause(Long.parseLong(args[4]));
					report("WORKED");
					awaitInput();
				}
				else {
					awaitInput();
					report("WRITE " + (resource.write(FENCED_RESOURCE, "worker", handle.fencingToken()) ? "applied"
							: "rejected"));
					report("HELD " + handle.isHeld());
				}
			});
			report("RELEASED");
		}
		catch (LockLostException ex) {
			report("LOST " + ex.getMessage());
		}
		System.exit(0);
	}

	private static void report(String line) {
		System.out.println("WORKER " + line);
		System.out.flush();
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void awaitInput() {
		try {
			new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
