package dev.locksmith.redis;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.locksmith.actuate.LocksEndpoint;
import dev.locksmith.actuate.LocksHealthIndicator;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.autoconfigure.health.LocksHealthContributorAutoConfiguration;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Passwords in {@code locksmith.redlock.nodes} stay out of the logs, health details, the locks endpoint
 * and startup errors, whether the URL is malformed, the server refuses the credentials, or it accepts them.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedlockSecretsTests {

	private static final String SECRET = "s3cret-redlock-pw";

	@RegisterExtension
	static final RedisServers redis = new RedisServers();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LocksmithAutoConfiguration.class,
				LocksHealthContributorAutoConfiguration.class))
		.withPropertyValues("locksmith.store=redlock", "locksmith.redis-timeout=8s");

	@Test
	void aMalformedUrlStopsTheStartupWithoutItsPassword(CapturedOutput output) {
		this.runner
			.withPropertyValues(nodes("redis://locksmith:" + SECRET + "@bad host:6379"))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(stackTrace(context.getStartupFailure())).contains("locksmith.redlock.nodes[0]")
					.doesNotContain(SECRET);
			});
		assertThat(output.getAll()).doesNotContain(SECRET);
	}

	@Test
	void neitherLogsNorHealthNorTheEndpointShowThePassword(CapturedOutput output) {
		this.runner.withPropertyValues(nodes(url("nobody", redis.first(3).get(0))))
			.run((context) -> {
				LockService locks = context.getBean(LockService.class);
				LocksEndpoint endpoint = new LocksEndpoint(locks, context.getBean(LockAdministration.class),
						Show.ALWAYS, Set.of(), 100, (event) -> { });
				try (LockHandle job = locks.tryAcquire("job", LockOptions.ofTtl(Duration.ofSeconds(30))).orElseThrow()) {
					assertThat(context.getBean(LocksHealthIndicator.class).health().toString())
						.contains("WRONGPASS")
						.doesNotContain(SECRET);
					assertThat(endpoint.locks("cluster", null, SecurityContext.NONE).toString()).contains("job")
						.doesNotContain(SECRET);
					assertThat(endpoint.locks(null, null, SecurityContext.NONE).toString()).doesNotContain(SECRET);
				}
			});
		assertThat(output.getAll()).doesNotContain(SECRET);
	}

	/** The nodes {@code first}, then two servers that accept any password for their {@code default} user. */
	private static String nodes(String first) {
		return "locksmith.redlock.nodes=" + first + "," + url("default", redis.first(3).get(1)) + ","
				+ url("default", redis.first(3).get(2));
	}

	private static String url(String user, RedisServer server) {
		return "redis://" + user + ":" + SECRET + "@127.0.0.1:" + server.port();
	}

	private static String stackTrace(Throwable failure) {
		StringWriter trace = new StringWriter();
		failure.printStackTrace(new PrintWriter(trace));
		return trace.toString();
	}

}
