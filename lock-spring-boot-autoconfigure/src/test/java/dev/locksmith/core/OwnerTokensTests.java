package dev.locksmith.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Owner tokens carry their instance and their lock's name, whatever characters either holds. */
class OwnerTokensTests {

	@Test
	void aNamedLocksTokenTellsItsInstanceAndName() {
		String token = new OwnerTokens("node:1").next("stock-report");

		assertThat(token).matches("node:1:[0-9a-f]{32};stock-report");
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

		assertThat(token).matches("node;1:[0-9a-f]{32}");
		assertThat(OwnerTokens.instanceOf(token)).isEqualTo("node;1");
		assertThat(OwnerTokens.nameOf(token)).isNull();
	}

	@Test
	void everyTokenIsNew() {
		OwnerTokens tokens = new OwnerTokens("node-1");

		assertThat(tokens.next("job")).isNotEqualTo(tokens.next("job"));
	}

}
