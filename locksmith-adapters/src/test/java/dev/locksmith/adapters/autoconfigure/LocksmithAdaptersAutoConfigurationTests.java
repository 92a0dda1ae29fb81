package dev.locksmith.adapters.autoconfigure;

import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

import dev.locksmith.adapters.integration.LocksmithLockRegistry;
import dev.locksmith.adapters.shedlock.LocksmithLockProvider;
import dev.locksmith.core.LockService;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/** When the adapters are configured: their library present, one lock service, no bean of the user's own. */
class LocksmithAdaptersAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LocksmithShedLockAutoConfiguration.class, LocksmithLockRegistryAutoConfiguration.class));

	@Test
	void withALockServiceBothAdaptersAreConfigured() {
		this.contextRunner.withBean(LockService.class, () -> mock(LockService.class)).run((context) -> {
			assertThat(context).hasSingleBean(LocksmithLockProvider.class);
			assertThat(context).hasSingleBean(LocksmithLockRegistry.class);
		});
	}

	@Test
	void withoutALockServiceNoAdapterIsConfigured() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(LockProvider.class);
			assertThat(context).doesNotHaveBean(LockRegistry.class);
		});
	}

	@Test
	void theApplicationsOwnProviderAndRegistryAreKept() {
		LockProvider own = mock(LockProvider.class);
		this.contextRunner.withBean(LockService.class, () -> mock(LockService.class))
			.withBean(LockProvider.class, () -> own)
			.withBean(DefaultLockRegistry.class)
			.run((context) -> {
				assertThat(context).getBean(LockProvider.class).isSameAs(own);
				assertThat(context).getBean(LockRegistry.class).isInstanceOf(DefaultLockRegistry.class);
			});
	}

	@Test
	void withoutShedLockOnlyTheRegistryIsConfigured() {
		this.contextRunner.withBean(LockService.class, () -> mock(LockService.class))
			.withClassLoader(new FilteredClassLoader(LockProvider.class))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(LocksmithLockProvider.class);
				assertThat(context).hasSingleBean(LocksmithLockRegistry.class);
			});
	}

	@Test
	void withoutSpringIntegrationOnlyTheProviderIsConfigured() {
		this.contextRunner.withBean(LockService.class, () -> mock(LockService.class))
			.withClassLoader(new FilteredClassLoader(LockRegistry.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(LocksmithLockProvider.class);
				assertThat(context).doesNotHaveBean(LocksmithLockRegistry.class);
			});
	}

	@Test
	void withTwoLockServicesNoAdapterGuessesWhichToUse() {
		this.contextRunner.withBean("first", LockService.class, () -> mock(LockService.class))
			.withBean("second", LockService.class, () -> mock(LockService.class))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(LocksmithLockProvider.class);
				assertThat(context).doesNotHaveBean(LocksmithLockRegistry.class);
			});
	}

}
