package dev.locksmith.benchmarks.report;

import java.awt.Color;

import dev.locksmith.benchmarks.lock.Library;

/** The colour of each library, the same in every chart. */
final class Palette {

	private Palette() {
	}

	static Color color(Library library) {
		return switch (library) {
			case TEXTBOOK -> new Color(0x8C8C8C);
			case REDISSON -> new Color(0x1F77B4);
			case SPRING_INTEGRATION_SPIN -> new Color(0x2CA02C);
			case SPRING_INTEGRATION_PUB_SUB -> new Color(0x98DF8A);
			case SHEDLOCK -> new Color(0xFF7F0E);
			case LOCKSMITH -> new Color(0xD62728);
			case LOCKSMITH_ANNOTATED -> new Color(0x8C1C13);
			case SHEDLOCK_JDBC -> new Color(0xFFBB78);
			case SPRING_INTEGRATION_JDBC -> new Color(0x17BECF);
			case LOCKSMITH_JDBC -> new Color(0xE377C2);
		};
	}

}
