package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Exception messages and log lines show a lock's name and mask its key, as the endpoint does by
 * default; code that handles an exception still gets the whole key.
 */
class MaskedKeysInMessagesTests {

	private static final String KEY = "invoice:secret-4711";

	private static final LockOptions OPTIONS = LockOptions.ofTtl(Duration.ofSeconds(30));

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private LettuceConnectionFactory connections;

	private RedisLockBackend backend;

	private DefaultLockService locks;

	@BeforeEach
	void startService() {
		this.connections = redisServer.server().connectionFactory();
		this.backend = new RedisLockBackend(this.connections, new RedisLockKeys("lock:"));
		this.locks = DefaultLockService.builder(this.backend).storeTimeout(Duration.ofMillis(500)).build();
	}

	@AfterEach
	void stopService() {
		this.locks.close();
		this.backend.close();
		this.connections.destroy();
	}

	@Test
	void aBusyLockIsNamedWithItsKeyMasked() throws Exception {
		try (LockHandle held = this.locks.acquire(KEY, OPTIONS)) {
			assertThatExceptionOfType(LockBusyException.class).isThrownBy(() -> this.locks.acquire(KEY, OPTIONS))
				.withMessageStartingWith("Lock 'invoice:******' is held by another owner (waited ")
				.withMessageEndingWith("ms)")
				.satisfies((busy) -> assertThat(busy.getKey()).isEqualTo(KEY));
		}
	}

	@Test
	void aLostLeaseIsLoggedAndReportedWithItsKeyMasked() {
		List<String> logged = new CopyOnWriteArrayList<>();
		Handler handler = new Handler() {

			@Override
			public void publish(LogRecord record) {
				logged.add(record.getMessage());
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		Logger engineLog = Logger.getLogger(DefaultLockService.class.getName());
		engineLog.addHandler(handler);
		try {
			loseTheLease();
		}
		finally {
			engineLog.removeHandler(handler);
		}

		assertThat(logged).anySatisfy((line) -> assertThat(line).startsWith("Lost the lease of lock 'invoice:******'"))
			.noneSatisfy((line) -> assertThat(line).contains("secret-4711"));
	}

	private void loseTheLease() {
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> this.locks.runLocked(KEY, OPTIONS, () -> {
			redisServer.server().command("DEL", "lock:{" + KEY + "}");
			assertThat(LockContext.current().orElseThrow().extend(Duration.ofSeconds(30))).isFalse();
		}))
			.withMessageStartingWith("Lock 'invoice:******' (fencing token ")
			.satisfies((lost) -> assertThat(lost.getKey()).isEqualTo(KEY));
	}

	@Test
	void askingALockOfSeveralKeysForTheWrongTokenNamesTheKeysMasked() throws Exception {
		try (LockHandle both = this.locks.tryAcquireAll(List.of(KEY, "invoice:secret-4712"), OPTIONS).orElseThrow()) {
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(both::fencingToken)
				.withMessageStartingWith("Lock of keys 'invoice:******', 'invoice:******' has a fencing token per key");
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> both.fencingToken("invoice:secret-4713"))
				.withMessage("Lock of keys 'invoice:******', 'invoice:******' does not hold key 'invoice:******'");
		}
	}

	@Test
	void aStoreThatDoesNotAnswerNamesTheKeyMasked() throws Exception {
		this.locks.tryAcquire("warm-up", OPTIONS).orElseThrow().close();
		RedisServer redis = redisServer.server();
		redis.pause();
		try {
			assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> this.locks.acquire(KEY, OPTIONS))
				.withMessage("Lock store did not answer acquire of 'invoice:******' within 500ms");
		}
		finally {
			redis.resume();
		}
	}

}
