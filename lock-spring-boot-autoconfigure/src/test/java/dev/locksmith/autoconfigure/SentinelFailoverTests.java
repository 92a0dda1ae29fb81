package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.redis.RedisFencedValues;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.RedisSentinelGroup;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Locking on a Sentinel-managed master, configured with {@code spring.data.redis.sentinel.*}: it
 * resumes on the promoted replica without a restart, fencing tokens keep increasing across the
 * failover, and the fenced resource (on a Redis that is never failed over) rejects a holder from
 * before it.
 */
@Tag("slow")
class SentinelFailoverTests {

	private static final LockOptions OPTIONS = LockOptions.ofTtl(Duration.ofSeconds(5))
		.withWaitTime(Duration.ofMillis(500));

	private static final List<String> ACCOUNTS = List.of("account:1", "account:2", "account:3");

	private RedisSentinelGroup sentinels;

	private RedisServer resourceServer;

	private LettuceConnectionFactory resourceConnections;

	private RedisFencedValues resource;

	@BeforeEach
	void start() {
		this.sentinels = RedisSentinelGroup.start();
		this.resourceServer = RedisServer.start();
		this.resourceConnections = this.resourceServer.connectionFactory();
		this.resource = new RedisFencedValues(this.resourceConnections);
	}

	@AfterEach
	void stop() {
		this.resourceConnections.destroy();
		this.resourceServer.close();
		this.sentinels.close();
	}

	@ParameterizedTest
	@EnumSource(Failover.class)
	void lockingResumesOnThePromotedReplicaWithHigherFencingTokens(Failover failover) {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.sentinel.master=" + RedisSentinelGroup.MASTER_NAME,
					"spring.data.redis.sentinel.nodes=" + this.sentinels.sentinelNodes(), "locksmith.redis-timeout=1s")
			.run((context) -> {
				LockService locks = context.getBean(LockService.class);
				LockHandle staleHolder = locks.acquire("account:stale", OPTIONS);
				Workload workload = new Workload(locks, this.resource);
				try {
					workload.start();
					await().atMost(Duration.ofMinutes(1)).until(() -> workload.accepted.get() >= 30);
					long highestBefore = highestToken();
					RedisServer oldMaster = this.sentinels.master();

					failover.apply(this.sentinels);
					await().atMost(Duration.ofMinutes(1))
						.alias("a replica promoted, and the old master gone or demoted")
						.until(() -> this.sentinels.masterPort() != oldMaster.port() && !answersAsMaster(oldMaster));
					long acceptedAtFailover = workload.accepted.get();
					await().atMost(Duration.ofMinutes(1))
						.alias("locking resumed on the new master")
						.until(() -> workload.accepted.get() >= acceptedAtFailover + 30);
					assertThat(workload.tokensAfter(highestBefore)).as("grants after the failover").isNotEmpty();
				}
				finally {
					workload.stop();
				}
				assertThat(workload.errors).as("failures while no master answered, or while a lost lock's lease ran")
					.allSatisfy((error) -> assertThat(error).isInstanceOfAny(LockUnavailableException.class,
							LockBusyException.class));
				// What asynchronous replication may lose: the grant and its fencing counter never reached the replica.
				this.sentinels.master().command("DEL", TestLockKeys.lockKey("account:stale"), TestLockKeys.fenceKey("account:stale"));
				try (LockHandle successor = locks.acquire("account:stale", OPTIONS)) {
					assertThat(successor.fencingToken()).isGreaterThan(staleHolder.fencingToken());
					assertThat(this.resource.write("account:stale", "successor", successor.fencingToken())).isTrue();
				}
				assertThat(this.resource.write("account:stale", "stale", staleHolder.fencingToken()))
					.as("the holder whose grant the failover lost is rejected")
					.isFalse();
				staleHolder.close();
			});
	}

	private static boolean answersAsMaster(RedisServer server) {
		try {
			return server.command("ROLE").startsWith("master");
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private long highestToken() {
		return ACCOUNTS.stream().mapToLong(this.resource::highestToken).max().orElse(0);
	}

	/** Ways to lose the master. */
	enum Failover {

		/** The master process dies with {@code kill -9}. */
		MASTER_KILLED {
			@Override
			void apply(RedisSentinelGroup sentinels) {
				sentinels.master().kill();
			}
		},

		/** An operator moves the master with {@code SENTINEL FAILOVER}; the old one turns replica. */
		MANUAL_FAILOVER {
			@Override
			void apply(RedisSentinelGroup sentinels) {
				sentinels.failover();
			}
		};

		abstract void apply(RedisSentinelGroup sentinels);

	}

	/** Two threads doing fenced read-modify-writes on a few accounts, until stopped. */
	private static final class Workload {

		private final LockService locks;

		private final RedisFencedValues resource;

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicLong accepted = new AtomicLong();

		private final List<Long> grantedTokens = new CopyOnWriteArrayList<>();

		private final List<Throwable> errors = new CopyOnWriteArrayList<>();

		private final List<Thread> threads = new CopyOnWriteArrayList<>();

		Workload(LockService locks, RedisFencedValues resource) {
			this.locks = locks;
			this.resource = resource;
		}

		void start() {
			for (int i = 0; i < 2; i++) {
				Thread thread = new Thread(this::run, "workload-" + i);
				thread.start();
				this.threads.add(thread);
			}
		}

		void stop() throws InterruptedException {
			this.running.set(false);
			for (Thread thread : this.threads) {
				thread.join();
			}
		}

		List<Long> tokensAfter(long token) {
			return this.grantedTokens.stream().filter((granted) -> granted > token).toList();
		}

		private void run() {
			int next = 0;
			while (this.running.get()) {
				String account = ACCOUNTS.get(next++ % ACCOUNTS.size());
				try (LockHandle lock = this.locks.acquire(account, OPTIONS)) {
					this.grantedTokens.add(lock.fencingToken());
					if (this.resource.write(account, Long.toString(next), lock.fencingToken())) {
						this.accepted.incrementAndGet();
					}
				}
				catch (RuntimeException ex) {
					this.errors.add(ex);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}

	}

}
