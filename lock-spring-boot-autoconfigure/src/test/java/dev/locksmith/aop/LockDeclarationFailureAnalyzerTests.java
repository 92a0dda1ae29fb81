package dev.locksmith.aop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.autoconfigure.LocksmithAopAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A wrong {@code @DistributedLock} reaches the user as Spring Boot's "APPLICATION FAILED TO START"
 * report; {@link DistributedLockStartupTests} analyses every kind of mistake.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockDeclarationFailureAnalyzerTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@Test
	void theUserSeesSpringBootsReportNamingTheMethodAndTheMistake(CapturedOutput output) {
		SpringApplication application = new SpringApplication(ApplicationWithAWrongTtl.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--spring.main.banner-mode=off",
				"--spring.data.redis.port=" + redisServer.server().port()));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:")
			.contains("@DistributedLock on Invoices.send(): ttl 'soon' is not a duration; use 500ms, 30s, PT1M or a "
					+ "placeholder")
			.contains("Action:")
			.contains("Correct the @DistributedLock on Invoices.send().");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
			LocksmithAutoConfiguration.class, LocksmithAopAutoConfiguration.class })
	static class ApplicationWithAWrongTtl {

		@Bean
		Invoices invoices() {
			return new Invoices();
		}

	}

	static class Invoices {

		@DistributedLock(ttl = "soon")
		public void send() {
		}

	}

}
