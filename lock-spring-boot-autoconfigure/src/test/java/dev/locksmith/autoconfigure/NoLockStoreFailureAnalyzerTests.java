package dev.locksmith.autoconfigure;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.test.inmemory.InMemoryLockBackend;
import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Every way Locksmith's store can fail to come up reaches the user as Spring Boot's "APPLICATION
 * FAILED TO START" report, with what was found and what to do.
 */
@ExtendWith(OutputCaptureExtension.class)
class NoLockStoreFailureAnalyzerTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final NoLockStoreFailureAnalyzer analyzer = new NoLockStoreFailureAnalyzer();

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(AopAutoConfiguration.class, LocksmithAutoConfiguration.class, LocksmithAopAutoConfiguration.class));

	@Test
	void noConnectionFactorySaysWhatTheRedisStoreNeeds() {
		FailureAnalysis analysis = analyze(this.runner);
		assertThat(analysis.getDescription()).startsWith("No LockService could be set up for locksmith.store=redis: "
				+ "it needs a RedisConnectionFactory bean, and the application has none.");
		assertThat(analysis.getAction()).startsWith("Add spring-boot-starter-data-redis and configure "
				+ "spring.data.redis.*, select another store with locksmith.store");
	}

	@Test
	void theInMemoryStoreWithoutTheTestModuleIsExplainedToABeanThatInjectsTheLockService() {
		FailureAnalysis analysis = analyze(this.runner.withClassLoader(new FilteredClassLoader(InMemoryLockBackend.class))
			.withPropertyValues("locksmith.store=in-memory")
			.withBean(LockServiceUser.class));
		assertThat(analysis.getDescription()).startsWith("No LockService could be set up for "
				+ "locksmith.store=in-memory: it needs dev.locksmith:locksmith-test on the class path");
		assertThat(analysis.getAction()).startsWith("Add dev.locksmith:locksmith-test as a test-scoped dependency");
	}

	@Test
	void redlockWithoutLettuceSaysWhatItNeeds() {
		FailureAnalysis analysis = analyze(this.runner.withClassLoader(new FilteredClassLoader(RedisClient.class))
			.withPropertyValues("locksmith.store=redlock"));
		assertThat(analysis.getDescription()).startsWith("No LockService could be set up for locksmith.store=redlock: "
				+ "it needs Lettuce on the class path and the servers in locksmith.redlock.nodes.");
		assertThat(analysis.getAction()).startsWith("Add spring-boot-starter-data-redis (it brings Lettuce)");
	}

	@Test
	void badRedlockNodesNameThePropertyAndWhatItNeeds() {
		FailureAnalysis analysis = analyze(this.runner.withPropertyValues("locksmith.store=redlock",
				"locksmith.redlock.nodes=redis://localhost:1,redis://localhost:2"));
		assertThat(analysis.getDescription()).startsWith("The Redlock store cannot be set up: locksmith.redlock.nodes "
				+ "must name 3 or 5 independent Redis servers for Redlock, but names 2.");
		assertThat(analysis.getAction()).isEqualTo("Set locksmith.redlock.nodes to the redis:// URLs of 3 or 5 "
				+ "independent Redis servers (not replicas of one another).");
	}

	@Test
	void annotatedMethodsWithLocksmithSwitchedOffStopTheStartup() {
		FailureAnalysis analysis = analyze(
				this.runner.withPropertyValues("locksmith.enabled=false").withBean(Reports.class));
		assertThat(analysis.getDescription()).startsWith("The application has @DistributedLock methods but no "
				+ "LockService to lock them: locksmith.enabled=false switched Locksmith's own off.");
		assertThat(analysis.getAction()).contains("set locksmith.aspect.enabled=false to run @DistributedLock "
				+ "methods without any lock");
	}

	@Test
	void withLocksmithSwitchedOffAndNoAnnotatedMethodsTheApplicationStarts() {
		this.runner.withPropertyValues("locksmith.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockService.class));
	}

	@Test
	void theUserSeesSpringBootsReportNamingTheConnectionFactories(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TwoConnectionFactoriesApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--spring.main.banner-mode=off"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:")
			.contains("Locksmith needs one RedisConnectionFactory for its locks (locksmith.store=redis), but the "
					+ "application has 2 and none is @Primary or @LockConnectionFactory: 'cacheConnectionFactory', "
					+ "'sessionConnectionFactory'.")
			.contains("Action:")
			.contains("Mark the connection factory that locks should use with "
					+ "@dev.locksmith.autoconfigure.LockConnectionFactory");
	}

	private FailureAnalysis analyze(ApplicationContextRunner runner) {
		FailureAnalysis[] analysis = new FailureAnalysis[1];
		runner.run((context) -> {
			assertThat(context).hasFailed();
			analysis[0] = this.analyzer.analyze(context.getStartupFailure());
		});
		assertThat(analysis[0]).as("analysed by Locksmith").isNotNull();
		return analysis[0];
	}

	/** A user's bean that needs the lock service. */
	static class LockServiceUser {

		LockServiceUser(LockService locks) {
		}

	}

	/** A bean with a locked method. */
	static class Reports {

		@DistributedLock(name = "daily")
		public void build() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, LocksmithAutoConfiguration.class,
			LocksmithAopAutoConfiguration.class })
	static class TwoConnectionFactoriesApplication {

		@Bean
		LettuceConnectionFactory cacheConnectionFactory() {
			return new LettuceConnectionFactory("127.0.0.1", redisServer.server().port());
		}

		@Bean
		LettuceConnectionFactory sessionConnectionFactory() {
			return new LettuceConnectionFactory("127.0.0.1", redisServer.server().port());
		}

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

}
