package dev.locksmith.adapters;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.core.LockService;
import dev.locksmith.leader.autoconfigure.LocksmithLeaderAutoConfiguration;

/** Application instances with leader elections auto-configured, each on a lock service of its own. */
public final class LeaderApplications {

	private LeaderApplications() {
	}

	/** Each run is one instance, as another process would run it, with a new service of {@code services}. */
	public static ApplicationContextRunner on(RedisLockServices services) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LocksmithLeaderAutoConfiguration.class))
			.withBean(LockService.class, services::newService);
	}

}
