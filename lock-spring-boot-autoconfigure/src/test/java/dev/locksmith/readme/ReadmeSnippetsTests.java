package dev.locksmith.readme;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java snippets of the README and of every page under docs/ are the tagged parts of sources that the
 * build compiles (this package's, and those of the modules a snippet needs): a snippet cannot stop
 * compiling unnoticed, and no snippet exists that is not compiled. Each shows its imports, so that a reader
 * can paste it.
 */
class ReadmeSnippetsTests {

	private static final List<Path> SNIPPETS = List.of(Path.of("src/test/java/dev/locksmith/readme"),
			Path.of("../locksmith-test/src/test/java/dev/locksmith/test/readme"),
			Path.of("../locksmith-adapters/src/test/java/dev/locksmith/adapters/readme"),
			Path.of("../sample-app/src/test/java/dev/locksmith/sample"));

	private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

	private static final Pattern TAGGED = Pattern.compile("// tag::([\\w-]+)\\[]\\n(.*?)[ \\t]*// end::\\1\\[]\\n",
			Pattern.DOTALL);

	private static final Pattern INDENT = Pattern.compile("^ *(?=\\S)", Pattern.MULTILINE);

	@Test
	void everyCompiledSnippetIsInTheDocumentationVerbatim() throws IOException {
		Map<String, String> snippets = snippets();
		assertThat(snippets).as("tagged snippets under " + SNIPPETS).isNotEmpty();
		List<String> blocks = javaBlocks().stream().map(JavaBlock::text).toList();
		snippets.forEach((name, snippet) -> assertThat(blocks)
			.as("a Java block in README.md or docs/ for snippet '" + name + "'")
			.contains(snippet));
	}

	@Test
	void everyJavaBlockOfTheDocumentationIsACompiledSnippet() throws IOException {
		List<String> compiled = List.copyOf(snippets().values());
		List<JavaBlock> blocks = javaBlocks();
		assertThat(blocks).extracting(JavaBlock::page).contains(Path.of("..", "README.md"));
		for (JavaBlock block : blocks) {
			assertThat(compiled)
				.as("a tagged snippet under %s equal to this block of %s:%n%s", SNIPPETS, block.page(), block.text())
				.contains(block.text());
		}
	}

	@Test
	void everyJavaBlockOfTheDocumentationShowsItsImports() throws IOException {
		assertThat(javaBlocks()).allSatisfy((block) -> assertThat(block.text())
			.as("the first line of this block of %s, which should import what it uses:%n%s", block.page(), block.text())
			.startsWith("import "));
	}

	private static List<JavaBlock> javaBlocks() throws IOException {
		List<JavaBlock> blocks = new ArrayList<>();
		for (Path page : DocumentationPages.all()) {
			Matcher block = JAVA_BLOCK.matcher(Files.readString(page));
			while (block.find()) {
				blocks.add(new JavaBlock(page, block.group(1)));
			}
		}
		return blocks;
	}

	/**
	 * Tagged parts of the snippet sources by tag, with tabs shown as four spaces and the indentation
	 * they share removed, as the README shows them.
	 */
	private static Map<String, String> snippets() throws IOException {
		Map<String, String> snippets = new LinkedHashMap<>();
		for (Path directory : SNIPPETS) {
			try (Stream<Path> files = Files.list(directory)) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).sorted().toList()) {
					Matcher tagged = TAGGED.matcher(Files.readString(file));
					while (tagged.find()) {
						snippets.put(tagged.group(1), dedent(tagged.group(2).replace("\t", "    ")));
					}
				}
			}
		}
		return snippets;
	}

	private record JavaBlock(Path page, String text) {
	}

	private static String dedent(String snippet) {
		int shared = INDENT.matcher(snippet).results().mapToInt((indent) -> indent.group().length()).min().orElse(0);
		return snippet.replaceAll("(?m)^ {" + shared + "}", "");
	}

}
