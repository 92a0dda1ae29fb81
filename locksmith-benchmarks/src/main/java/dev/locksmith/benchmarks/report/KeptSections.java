package dev.locksmith.benchmarks.report;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sections of a generated report that runs of their own write, each between
 * {@code <!-- section id -->} and {@code <!-- end of section id -->}: such a run replaces its
 * section, and a run that rewrites the whole report keeps them all.
 */
final class KeptSections {

	private static final Pattern SECTION = Pattern
		.compile("(?s)<!-- section ([\\w-]+) -->\\n.*?<!-- end of section \\1 -->\\n");

	private KeptSections() {
	}

	/** Every section in {@code text}, in order, a blank line between two; empty when there is none. */
	static String in(String text) {
		StringBuilder sections = new StringBuilder();
		Matcher section = SECTION.matcher(text);
		while (section.find()) {
			sections.append(sections.isEmpty() ? "" : "\n").append(section.group());
		}
		return sections.toString();
	}

	/** {@code text} with section {@code id} replaced by {@code markdown}, or with it added at the end after a blank line. */
	static String replace(String text, String id, String markdown) {
		String start = "<!-- section " + id + " -->\n";
		String end = "<!-- end of section " + id + " -->\n";
		String section = start + markdown + (markdown.endsWith("\n") ? "" : "\n") + end;
		int from = text.indexOf(start);
		int to = text.indexOf(end, Math.max(from, 0));
		if (from >= 0 && to > from) {
			return text.substring(0, from) + section + text.substring(to + end.length());
		}
		String separator = text.isEmpty() || text.endsWith("\n\n") ? "" : (text.endsWith("\n") ? "\n" : "\n\n");
		return text + separator + section;
	}

}
