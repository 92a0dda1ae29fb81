package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pause between Lettuce's reconnect attempts on the ClientResources Spring Boot builds: capped at
 * {@code locksmith.redis.max-reconnect-delay} instead of Lettuce's 30 s, unless the application chose its
 * own. {@link RedisReconnectTests} shows what the cap changes after an outage.
 */
class ReconnectDelayTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.port=" + redisServer.server().port());

	@Test
	void springBootsClientResourcesReconnectAtMostOneSecondApartByDefaultStartingAtOnce() {
		this.runner.run((context) -> {
			Delay delay = context.getBean(ClientResources.class).reconnectDelay();
			assertThat(delay.createDelay(1)).as("the first attempt").isLessThanOrEqualTo(Duration.ofMillis(1));
			assertThat(delays(delay, 20, 40)).allSatisfy((pause) -> assertThat(pause)
				.isBetween(Duration.ofMillis(500), Duration.ofSeconds(1)));
			assertThat(delays(delay, 20, 40).distinct().count()).as("jitter, so that clients spread out")
				.isGreaterThan(1);
			assertThat(context.getBean(LettuceConnectionFactory.class).getClientResources())
				.isSameAs(context.getBean(ClientResources.class));
		});
	}

	@Test
	void thePropertySetsTheLongestPause() {
		this.runner.withPropertyValues("locksmith.redis.max-reconnect-delay=3s").run((context) -> {
			Delay delay = context.getBean(ClientResources.class).reconnectDelay();
			assertThat(delays(delay, 20, 40)).allSatisfy((pause) -> assertThat(pause)
				.isBetween(Duration.ofMillis(1500), Duration.ofSeconds(3)));
		});
	}

	@Test
	void theApplicationsOwnCustomizerHasTheLastWord() {
		this.runner
			.withBean(ClientResourcesBuilderCustomizer.class,
					() -> (builder) -> builder.reconnectDelay(Delay.constant(Duration.ofSeconds(7))))
			.run((context) -> assertThat(context.getBean(ClientResources.class).reconnectDelay().createDelay(30))
				.isEqualTo(Duration.ofSeconds(7)));
	}

	@Test
	void clientResourcesTheApplicationBuiltKeepLettucesDelay() {
		this.runner.withBean(ClientResources.class, DefaultClientResources::create).run((context) -> {
			assertThat(context.getBean(LettuceConnectionFactory.class).getClientResources())
				.isSameAs(context.getBean(ClientResources.class));
			assertThat(context.getBean(ClientResources.class).reconnectDelay().createDelay(30))
				.isEqualTo(Duration.ofSeconds(30));
		});
	}

	private static Stream<Duration> delays(Delay delay, long fromAttempt, long toAttempt) {
		return LongStream.rangeClosed(fromAttempt, toAttempt).mapToObj(delay::createDelay);
	}

}
