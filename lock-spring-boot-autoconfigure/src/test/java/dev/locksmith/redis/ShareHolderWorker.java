package dev.locksmith.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.HandleOwnerTokens;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.OwnerEntries;

/**
 * A separate JVM that holds a renewed read lock or permit, for {@link SharedLockProcessTests}. It reports
 * on standard output, each line starting with {@code WORKER}: {@code ACQUIRED <owner token>}, then
 * {@code RELEASED} after a line on standard input. Arguments: Redis port, lock key, lease in ms, wait in
 * ms, and {@code read} or the permit count.
 */
public final class ShareHolderWorker {

	private ShareHolderWorker() {
	}

	public static void main(String[] args) throws Exception {
		LockOptions options = LockOptions.ofTtl(Duration.ofMillis(Long.parseLong(args[2])))
			.withWaitTime(Duration.ofMillis(Long.parseLong(args[3])));
		options = args[4].equals("read") ? options.withMode(LockMode.READ)
				: options.withPermits(Integer.parseInt(args[4]));
		try (WorkerLocks worker = new WorkerLocks(Integer.parseInt(args[0]), Duration.ofSeconds(1))) {
			Optional<LockHandle> granted = worker.locks.tryAcquire(args[1], options);
			if (granted.isEmpty()) {
				report("BUSY");
				return;
			}
			try (LockHandle handle = granted.get()) {
				report("ACQUIRED " + OwnerEntries.of(HandleOwnerTokens.owner(handle)));
				new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
			}
			report("RELEASED");
		}
		System.exit(0);
	}

	private static void report(String line) {
		System.out.println("WORKER " + line);
		System.out.flush();
	}

}
