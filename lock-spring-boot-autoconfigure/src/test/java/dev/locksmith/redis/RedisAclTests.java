package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.actuate.LocksHealthIndicator;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.autoconfigure.health.LocksHealthContributorAutoConfiguration;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Locksmith as a Redis user restricted to the ACL it documents: the health check, the locks endpoint and
 * Redlock's clock check work (the lock contract runs as that user in {@code locksmith-test}), and a user
 * with a narrower ACL gets failures that name what it lacks.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisAclTests {

	private static final LockOptions LONG = LockOptions.ofTtl(Duration.ofSeconds(30));

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> LocksmithAcl.connectAsUser(redisServer.server()));

	@Test
	void theHealthCheckAndTheLocksEndpointWorkWithTheDocumentedAcl() throws Exception {
		LocksmithAcl.createUser(redisServer.server(), LocksmithAcl.rules(RedisFixture.KEYS));
		DefaultLockService locks = this.fixture.service();
		RedisLockAdministration administration = new RedisLockAdministration(this.fixture.connect(),
				RedisFixture.KEYS);

		try (LockHandle job = locks.tryAcquire("job", LONG).orElseThrow();
				LockHandle report = locks.tryAcquire("report", LONG.withMode(LockMode.READ)).orElseThrow()) {
			administration.ping();
			assertThat(administration.storedLocks(10).join()).extracting(StoredLock::key, StoredLock::mode)
				.containsExactlyInAnyOrder(tuple("job", LockMode.WRITE),
						tuple("report", LockMode.READ));
			assertThat(administration.forceRelease("job").join()).isTrue();
			assertThat(redisServer.server().command("EXISTS", "lock:{job}")).isEqualTo("0");
		}
	}

	@Test
	void theWaitQueuesAreListedWithTheDocumentedAcl() throws Exception {
		LocksmithAcl.createUser(redisServer.server(), LocksmithAcl.rules(RedisFixture.KEYS));
		DefaultLockService locks = this.fixture.service();
		RedisLockAdministration administration = new RedisLockAdministration(this.fixture.connect(),
				RedisFixture.KEYS);
		ExecutorService waiting = Executors.newSingleThreadExecutor();
		try (LockHandle job = locks.tryAcquire("job", LONG).orElseThrow()) {
			waiting.submit(() -> locks.tryAcquire("job", LONG.withWaitTime(Duration.ofSeconds(30))));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> administration.waitQueues(10).join(), (queues) -> queues.size() == 1
						&& queues.get(0).waiters().size() == 1);
			assertThat(administration.waitQueues(10).join()).singleElement().satisfies((queue) -> {
				assertThat(queue.fencingToken()).isEqualTo(job.fencingToken());
				assertThat(queue.waiters()).singleElement()
					.satisfies((waiter) -> assertThat(waiter.waitLeft()).isPositive());
			});
		}
		finally {
			waiting.shutdownNow();
		}
	}

	@Test
	void redlockLocksAndChecksClocksWithTheDocumentedAclOnEachServer() {
		List<RedisServer> servers = IntStream.range(0, 3).mapToObj((i) -> RedisServer.start()).toList();
		try {
			servers.forEach((server) -> LocksmithAcl.createUser(server, LocksmithAcl.rules(RedisFixture.KEYS)));
			String nodes = servers.stream()
				.map((server) -> "redis://" + LocksmithAcl.USER + ":" + LocksmithAcl.PASSWORD + "@127.0.0.1:"
						+ server.port())
				.collect(Collectors.joining(","));
			new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(LocksmithAutoConfiguration.class,
						LocksHealthContributorAutoConfiguration.class))
				.withPropertyValues("locksmith.store=redlock", "locksmith.redlock.nodes=" + nodes)
				.run((context) -> {
					try (LockHandle job = context.getBean(LockService.class).tryAcquire("job", LONG).orElseThrow()) {
						assertThat(servers).allSatisfy(
								(server) -> assertThat(server.command("EXISTS", "lock:{job}")).isEqualTo("1"));
						Health health = context.getBean(LocksHealthIndicator.class).health();
						assertThat(health.getStatus()).isEqualTo(Status.UP);
						assertThat(health.getDetails()).containsKey("clockOffsets").doesNotContainKey("clockWarning");
					}
				});
		}
		finally {
			servers.forEach(RedisServer::close);
		}
	}

	@Test
	void aUserWithoutEvalshaFailsTheFirstLockNamingTheCommandAndTheAcl() {
		LocksmithAcl.createUser(redisServer.server(), LocksmithAcl.rules(RedisFixture.KEYS, "-evalsha"));
		DefaultLockService locks = this.fixture.service();

		assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> locks.tryAcquire("job", LONG))
			.withMessageContaining("NOPERM")
			.withMessageContaining("'evalsha'")
			.withMessageContaining("+evalsha");
	}

	@Test
	void aUserWithoutTheQueueKeysFailsTheFirstLockNamingTheKeyPatterns() {
		LocksmithAcl.createUser(redisServer.server(),
				LocksmithAcl.rules(RedisFixture.KEYS, "resetkeys", "~lock:{*", "~lock:fence:{*"));
		DefaultLockService locks = this.fixture.service();

		assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> locks.tryAcquire("job", LONG))
			.withMessageContaining("NOPERM")
			.withMessageContaining("~lock:queue:{*");
		assertThat(redisServer.server().command("EXISTS", "lock:{job}")).isEqualTo("0");
	}

	@Test
	void aUserWithoutScriptLoadIsWarnedOfAtStartup(CapturedOutput output) {
		LocksmithAcl.createUser(redisServer.server(), LocksmithAcl.rulesWithout(RedisFixture.KEYS, "+script|load"));
		RedisLockBackend backend = this.fixture.closeWith(new RedisLockBackend(this.fixture.connect(),
				RedisFixture.KEYS));

		backend.warmUp().join();

		await().until(() -> output.getOut().contains("Redis refused the lock connection a permission"));
		assertThat(output.getOut()).contains("NOPERM").contains("+script|load");
	}

	@Test
	void aUserWithoutPingFailsTheHealthCheckNamingTheCommand() {
		LocksmithAcl.createUser(redisServer.server(), LocksmithAcl.rules(RedisFixture.KEYS, "-ping"));
		RedisLockAdministration administration = new RedisLockAdministration(this.fixture.connect(),
				RedisFixture.KEYS);

		assertThatExceptionOfType(CompletionException.class).isThrownBy(() -> administration.ping().join())
			.withCauseInstanceOf(LockUnavailableException.class)
			.withMessageContaining("'ping'")
			.withMessageContaining("+ping");
	}

}
