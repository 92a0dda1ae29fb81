package dev.locksmith.autoconfigure;

import org.junit.jupiter.api.Test;

import dev.locksmith.aop.DistributedLockAdvisor;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link LocksmithProperties} keeps of its own now that it imports no aspect. */
class LocksmithPropertiesTests {

	@Test
	void theAspectOrderDefaultsToTheAdvisorsOwn() {
		assertThat(new LocksmithProperties().getAspect().getOrder()).isEqualTo(DistributedLockAdvisor.DEFAULT_ORDER);
	}

}
