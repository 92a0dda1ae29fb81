package dev.locksmith.leader.autoconfigure;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.adapters.RedisLockServices;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.leader.LeaderElection;
import dev.locksmith.leader.LeaderElections;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code locksmith.leader.ttl} at its limits (0, 1ms, just under 1s, negative, the longest the engine
 * counts, one day past it, past what a Duration holds, malformed, empty): the startup fails naming the
 * property, or the role gets one leader whose lock a second owner cannot take while it leads.
 */
class LeaderPropertyBoundaryTests {

	private static final String STARTS = "starts";

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final RedisLockServices services = new RedisLockServices(redisServer.server());

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LocksmithLeaderAutoConfiguration.class))
		.withBean(LockService.class, this.services::newService)
		.withPropertyValues("locksmith.leader.roles=boundary");

	@AfterEach
	void close() throws Exception {
		this.services.close();
	}

	@ParameterizedTest(name = "locksmith.leader.ttl={0}: {1}")
	@CsvSource(delimiter = '|', textBlock = """
			0                 | ttl must be at least 1s
			1ms               | ttl must be at least 1s
			999ms             | ttl must be at least 1s
			-1s               | ttl must be at least 1s
			1s                | starts
			106751d           | starts
			106752d           | ttl must be at most 106751d
			999999999999999d  | Failed to bind properties under 'locksmith.leader.ttl'
			soon              | Failed to bind properties under 'locksmith.leader.ttl'
			''                | starts
			""")
	void aLeaderTtlAtItsLimitStopsTheStartupNamingItOrElectsOneLeader(String ttl, String outcome) {
		this.runner.withPropertyValues("locksmith.leader.ttl=" + ttl).run((context) -> {
			if (!STARTS.equals(outcome)) {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasStackTraceContaining("locksmith.leader.ttl")
					.hasStackTraceContaining(outcome);
				return;
			}
			assertThat(context).hasNotFailed();
			LeaderElection election = context.getBean(LeaderElections.class).election("boundary");
			long token = await("a leader").atMost(Duration.ofSeconds(30))
				.until(election::fencingToken, OptionalLong::isPresent)
				.getAsLong();
			Optional<LockHandle> second = this.services.newService()
				.tryAcquire(election.lockKey(), LockOptions.ofTtl(Duration.ofSeconds(30)));
			second.ifPresent(LockHandle::close);
			if (second.isPresent()) {
				assertThat(election.fencingToken()).as("a second owner took the lock of a leader that still leads")
					.isNotEqualTo(OptionalLong.of(token));
			}
		});
	}

}
