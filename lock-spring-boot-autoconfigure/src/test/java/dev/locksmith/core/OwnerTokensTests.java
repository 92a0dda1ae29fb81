package dev.locksmith.core;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Owner tokens carry their instance and their lock's name, whatever characters either holds, and the thread
 * that asked and when.
 */
class OwnerTokensTests {

	@Test
	void aNamedLocksTokenTellsItsInstanceAndName() {
		String token = new OwnerTokens("node:1").next("stock-report");

		assertThat(token).matches("node:1:[0-9A-Za-z_.]{22}-[0-9a-z]+-[0-9a-z]+;stock-report");
		assertThat(OwnerTokens.instanceOf(token)).isEqualTo("node:1");
		assertThat(OwnerTokens.nameOf(token)).isEqualTo("stock-report");
	}

	@Test
	void aNameWithSeparatorsIsEncodedSoTheInstanceStillReadsBack() {
		String token = new OwnerTokens("node;1").next("a:b;c d\n%");

		assertThat(token.substring(token.lastIndexOf(':'))).doesNotContain("\n");
		assertThat(OwnerTokens.instanceOf(token)).isEqualTo("node;1");
		assertThat(OwnerTokens.nameOf(token)).isEqualTo("a:b;c d\n%");
	}

	@Test
	void aNameWithASpaceEndsWithoutAPlusSoAStoresReleasedMarkCannotBeMistakenForIt() {
		String token = new OwnerTokens("node-1").next("order released");

		assertThat(token).endsWith(";order%20released").doesNotContain("+");
		assertThat(OwnerTokens.nameOf(token)).isEqualTo("order released");
	}

	@Test
	void anUnnamedLocksTokenHasNoName() {
		String token = new OwnerTokens("node;1").next();

		assertThat(token).matches("node;1:[0-9A-Za-z_.]{22}-[0-9a-z]+-[0-9a-z]+");
		assertThat(OwnerTokens.instanceOf(token)).isEqualTo("node;1");
		assertThat(OwnerTokens.nameOf(token)).isNull();
	}

	@Test
	void aTokenTellsTheThreadThatAskedAndWhen() throws Exception {
		OwnerTokens tokens = new OwnerTokens("node:1");
		Instant before = Instant.ofEpochMilli(System.currentTimeMillis());
		String[] asked = new String[1];
		Thread thread = new Thread(() -> asked[0] = tokens.next("job"));
		thread.start();
		thread.join();

		assertThat(OwnerTokens.threadOf(asked[0])).isEqualTo(Long.toString(thread.getId()));
		assertThat(OwnerTokens.askedAtOf(asked[0])).isBetween(before, Instant.now());
		assertThat(StoredOwner.of(asked[0]).threadId()).isEqualTo("node:1#" + thread.getId());
	}

	@Test
	void aTokenWithoutAStampTellsNoThreadNorTime() {
		String token = "node:1:" + "0".repeat(32) + ";job";

		assertThat(StoredOwner.of(token)).isEqualTo(new StoredOwner("node:1", "job", null, null));
		assertThat(StoredOwner.of(token).threadId()).isNull();
	}

	@Test
	void theRandomDigitsSpanTheirWholeAlphabet() {
		OwnerTokens tokens = new OwnerTokens("node-1");
		Set<String> randomParts = new HashSet<>();
		Set<Integer> digits = new HashSet<>();
		for (int i = 0; i < 1000; i++) {
			String randomPart = tokens.next().substring("node-1:".length(), "node-1:".length() + 22);
			randomParts.add(randomPart);
			randomPart.chars().forEach(digits::add);
		}
		assertThat(randomParts).hasSize(1000);
		assertThat(digits).as("64 digits of 6 bits each").hasSize(64);
	}

	@Test
	void everyTokenIsNew() {
		OwnerTokens tokens = new OwnerTokens("node-1");

		assertThat(tokens.next("job")).isNotEqualTo(tokens.next("job"));
	}

}
