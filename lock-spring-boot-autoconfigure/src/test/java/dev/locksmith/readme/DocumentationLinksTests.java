package dev.locksmith.readme;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the README, the changelog and the pages under docs/ leads somewhere: to a file
 * that exists and, with a {@code #fragment}, to a heading of that file, anchored as GitHub anchors it.
 */
class DocumentationLinksTests {

	private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)\\)");

	private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");

	private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?) *#*$");

	private static final Pattern EXTERNAL = Pattern.compile("^[a-z][a-z0-9+.-]*:", Pattern.CASE_INSENSITIVE);

	@Test
	void everyRelativeLinkLeadsToAFileAndHeadingThatExist() throws IOException {
		List<String> broken = new ArrayList<>();
		int checked = 0;
		for (Path page : DocumentationPages.all()) {
			for (String target : relativeLinks(page)) {
				checked++;
				String problem = problem(page, target);
				if (problem != null) {
					broken.add(page.normalize() + ": (" + target + ") " + problem);
				}
			}
		}
		assertThat(checked).as("relative links checked").isPositive();
		assertThat(broken).as("broken relative links").isEmpty();
	}

	@Test
	void anchorsAreTheOnesGitHubGives() {
		assertThat(anchors(List.of("## `retryAfter`: when to try again", "## Read/write locks and permits",
				"### `java.util.concurrent.locks.Lock`", "## Tests", "## Tests", "```shell", "# a comment", "```")))
			.containsExactly("retryafter-when-to-try-again", "readwrite-locks-and-permits",
					"javautilconcurrentlockslock", "tests", "tests-1");
	}

	@Test
	void aLinkToAMissingFileOrHeadingIsReported() throws IOException {
		Path readme = Path.of("..", "README.md");
		assertThat(problem(readme, "docs/guide/no-such-page.md")).contains("no such file");
		assertThat(problem(readme, "docs/guide/annotations.md#no-such-heading")).contains("no heading");
		assertThat(problem(readme, "#no-such-heading")).contains("no heading");
		assertThat(problem(readme, "docs/guide/annotations.md#attributes")).isNull();
	}

	private static @Nullable String problem(Path page, String target) throws IOException {
		int hash = target.indexOf('#');
		String file = (hash >= 0) ? target.substring(0, hash) : target;
		Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
		if (!Files.exists(resolved)) {
			return "no such file: " + resolved;
		}
		if (hash < 0) {
			return null;
		}
		String fragment = target.substring(hash + 1);
		if (!resolved.toString().endsWith(".md")) {
			return "a fragment on a file that is not markdown";
		}
		boolean found = anchors(Files.readAllLines(resolved)).contains(fragment);
		return found ? null : "no heading with anchor '" + fragment + "' in " + resolved;
	}

	private static List<String> relativeLinks(Path page) throws IOException {
		List<String> links = new ArrayList<>();
		boolean inFence = false;
		for (String line : Files.readAllLines(page)) {
			if (line.startsWith("```")) {
				inFence = !inFence;
				continue;
			}
			if (inFence) {
				continue;
			}
			Matcher link = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
			while (link.find()) {
				String target = link.group(1);
				if (!EXTERNAL.matcher(target).find()) {
					links.add(target);
				}
			}
		}
		return links;
	}

	/** The anchors GitHub gives the headings of a page, in order, outside fenced code blocks. */
	private static List<String> anchors(List<String> lines) {
		List<String> anchors = new ArrayList<>();
		Map<String, Integer> seen = new HashMap<>();
		boolean inFence = false;
		for (String line : lines) {
			if (line.startsWith("```")) {
				inFence = !inFence;
				continue;
			}
			Matcher heading = HEADING.matcher(line);
			if (inFence || !heading.matches()) {
				continue;
			}
			String slug = heading.group(1)
				.replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1")
				.toLowerCase(Locale.ROOT)
				.replaceAll("[^\\p{L}\\p{N} _-]", "")
				.replace(' ', '-');
			int count = seen.merge(slug, 1, Integer::sum);
			anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
		}
		return anchors;
	}

}
