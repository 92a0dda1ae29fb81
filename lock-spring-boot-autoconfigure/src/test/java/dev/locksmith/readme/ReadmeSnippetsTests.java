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
 * The README's Java snippets are the tagged parts of sources that the build compiles (this package's,
 * and those of the modules a snippet needs): a snippet cannot stop compiling unnoticed, and no snippet
 * exists that is not compiled.
 */
class ReadmeSnippetsTests {

	private static final Path README = Path.of("..", "README.md");

	private static final List<Path> SNIPPETS = List.of(Path.of("src/test/java/dev/locksmith/readme"),
			Path.of("../locksmith-test/src/test/java/dev/locksmith/test/readme"),
			Path.of("../sample-app/src/test/java/dev/locksmith/sample"));

	private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

	private static final Pattern TAGGED = Pattern.compile("// tag::([\\w-]+)\\[]\\n(.*?)[ \\t]*// end::\\1\\[]\\n",
			Pattern.DOTALL);

	private static final Pattern INDENT = Pattern.compile("^ *(?=\\S)", Pattern.MULTILINE);

	@Test
	void everyCompiledSnippetIsInTheReadmeVerbatim() throws IOException {
		Map<String, String> snippets = snippets();
		assertThat(snippets).as("tagged snippets under " + SNIPPETS).isNotEmpty();
		List<String> blocks = readmeBlocks();
		snippets.forEach((name, snippet) -> assertThat(blocks).as("README block for snippet '" + name + "'")
			.contains(snippet));
	}

	@Test
	void everyJavaBlockOfTheReadmeIsACompiledSnippet() throws IOException {
		List<String> compiled = List.copyOf(snippets().values());
		for (String block : readmeBlocks()) {
			assertThat(compiled).as("a tagged snippet under %s equal to this README block:%n%s", SNIPPETS, block)
				.contains(block);
		}
	}

	private static List<String> readmeBlocks() throws IOException {
		List<String> blocks = new ArrayList<>();
		Matcher block = JAVA_BLOCK.matcher(Files.readString(README));
		while (block.find()) {
			blocks.add(block.group(1));
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

	private static String dedent(String snippet) {
		int shared = INDENT.matcher(snippet).results().mapToInt((indent) -> indent.group().length()).min().orElse(0);
		return snippet.replaceAll("(?m)^ {" + shared + "}", "");
	}

}
