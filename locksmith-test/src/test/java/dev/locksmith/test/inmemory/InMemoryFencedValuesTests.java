package dev.locksmith.test.inmemory;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

import static org.assertj.core.api.Assertions.assertThat;

/** Fenced values in memory: the rules of the Redis ones, and the bean of {@code locksmith.store=in-memory}. */
class InMemoryFencedValuesTests {

	private final FencedValues values = new InMemoryFencedValues();

	@Test
	void aWriteWithAnOlderTokenThanTheHighestSeenIsRejected() {
		assertThat(this.values.write("stock:apple", "7", 20)).isTrue();
		assertThat(this.values.write("stock:apple", "3", 10)).isFalse();

		assertThat(this.values.read("stock:apple")).isEqualTo("7");
		assertThat(this.values.highestToken("stock:apple")).isEqualTo(20);
	}

	@Test
	void aWriteWithTheSameOrANewerTokenIsApplied() {
		this.values.write("stock:apple", "7", 20);

		assertThat(this.values.write("stock:apple", "8", 20)).isTrue();
		assertThat(this.values.write("stock:apple", "9", 21)).isTrue();
		assertThat(this.values.read("stock:apple")).isEqualTo("9");
		assertThat(this.values.highestToken("stock:apple")).isEqualTo(21);
	}

	@Test
	void anUnwrittenKeyHasNoValueAndTokenZero() {
		assertThat(this.values.read("stock:pear")).isNull();
		assertThat(this.values.highestToken("stock:pear")).isZero();
	}

	@Test
	void theInMemoryStoreFencesAStaleHolderWithoutRedis() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(LocksmithAutoConfiguration.class))
			.withPropertyValues("locksmith.store=in-memory")
			.run((context) -> {
				assertThat(context).getBean(FencedValues.class).isInstanceOf(InMemoryFencedValues.class);
				LockService locks = context.getBean(LockService.class);
				FencedValues fenced = context.getBean(FencedValues.class);
				LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(30));
				long stale;
				try (LockHandle first = locks.acquire("stock:apple", options)) {
					stale = first.fencingToken();
				}
				try (LockHandle next = locks.acquire("stock:apple", options)) {
					assertThat(fenced.write("stock:apple", "8", next.fencingToken())).isTrue();
				}
				assertThat(fenced.write("stock:apple", "3", stale)).as("the stale holder's write").isFalse();
				assertThat(fenced.read("stock:apple")).isEqualTo("8");
			});
	}

}
