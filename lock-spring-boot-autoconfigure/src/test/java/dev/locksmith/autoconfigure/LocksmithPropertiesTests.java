package dev.locksmith.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.core.Ordered;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link LocksmithProperties} keeps of its own now that it imports no aspect. */
class LocksmithPropertiesTests {

	@Test
	void theAspectOrderDefaultsToJustOutsideTheTransactionAdvisor() {
		assertThat(new LocksmithProperties().getAspect().getOrder()).isEqualTo(Ordered.LOWEST_PRECEDENCE - 100);
	}

}
