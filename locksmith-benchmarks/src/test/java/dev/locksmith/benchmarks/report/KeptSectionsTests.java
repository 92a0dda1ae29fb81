package dev.locksmith.benchmarks.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeptSectionsTests {

	private static final String REPORT = "# Benchmarks\n\n| table |\n\n";

	@Test
	void aSectionIsAddedAtTheEndAfterABlankLine() {
		assertThat(KeptSections.replace(REPORT, "latency", "## Latency\n"))
			.isEqualTo(REPORT + "<!-- section latency -->\n## Latency\n<!-- end of section latency -->\n");
		assertThat(KeptSections.replace("# Benchmarks", "latency", "## Latency"))
			.isEqualTo("# Benchmarks\n\n<!-- section latency -->\n## Latency\n<!-- end of section latency -->\n");
	}

	@Test
	void aSectionReplacesItsEarlierVersionAndLeavesTheRest() {
		String before = KeptSections.replace(KeptSections.replace(REPORT, "latency", "old\n"), "other", "other\n")
				+ "tail\n";
		assertThat(KeptSections.replace(before, "latency", "new\n")).isEqualTo(before.replace("old", "new"));
	}

	@Test
	void aRewrittenReportKeepsEverySectionInOrder() {
		String written = KeptSections.replace(KeptSections.replace(REPORT, "latency", "one\n"), "other", "two\n");
		assertThat(KeptSections.in(written)).isEqualTo("<!-- section latency -->\none\n<!-- end of section latency -->\n"
				+ "\n<!-- section other -->\ntwo\n<!-- end of section other -->\n");
		assertThat(KeptSections.in(REPORT + KeptSections.in(written))).isEqualTo(KeptSections.in(written));
		assertThat(KeptSections.in(REPORT)).isEmpty();
	}

}
