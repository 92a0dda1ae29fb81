package dev.locksmith.redis;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How soon locking on one Redis resumes once the server answers again after a {@link LongOutage}. The
 * recovery time is printed; the stores guide quotes it, measured with {@code -Dlocksmith.outage=PT40S}.
 */
class RedisReconnectTests {

	private static final LockOptions LONG = LockOptions.ofTtl(Duration.ofSeconds(30));

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> redisServer.server().connectionFactory());

	@Test
	void lockingResumesPromptlyOnceRedisAnswersAgainAfterALongOutage() throws Exception {
		DefaultLockService locks = this.fixture.service();
		locks.tryAcquire("warm-up", LONG).orElseThrow().close();

		LongOutage.of(redisServer.server());
		Duration recovery = LongOutage.until(() -> locks.tryAcquire("job", LONG).isPresent());

		System.out.printf("Redis store: first lock %d ms after Redis answered again, after a %d s outage%n",
				recovery.toMillis(), LongOutage.OUTAGE.toSeconds());
		assertThat(recovery).as("time from Redis answering again to the first lock granted")
			.isLessThan(LongOutage.PROMPT);
	}

	@Test
	void theHealthPingAnswersPromptlyOnceRedisAnswersAgainWithNoLockCalled() throws Exception {
		RedisLockAdministration administration = new RedisLockAdministration(this.fixture.connect(), RedisFixture.KEYS);
		administration.ping();

		LongOutage.of(redisServer.server());
		Duration recovery = LongOutage.until(() -> {
			administration.ping();
			return true;
		});

		System.out.printf("Redis store: health ping answered %d ms after Redis answered again, after a %d s outage%n",
				recovery.toMillis(), LongOutage.OUTAGE.toSeconds());
		assertThat(recovery).as("time from Redis answering again to the first ping answered")
			.isLessThan(LongOutage.PROMPT);
	}

}
