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
 * The README's Java snippets are the tagged parts of this package's sources, which the build
 * compiles: a snippet cannot stop compiling unnoticed, and no snippet exists that is not compiled.
 */
class ReadmeSnippetsTests {

	private static final Path README = Path.of("..", "README.md");

	private static final Path SNIPPETS = Path.of("src", "test", "java", "dev", "locksmith", "readme");

	private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

	/**
	 * Blocks about the test-support module, whose types this module cannot see: they name these
	 * types, and are left to a snippet test in that module.
	 */
	private static final List<String> OTHER_MODULES = List.of("LockAssertions", "InMemoryLockBackend",
			"RedisContainerConfiguration");

	private static final Pattern TAGGED = Pattern.compile("// tag::([\\w-]+)\\[]\\n(.*?)// end::\\1\\[]\\n",
			Pattern.DOTALL);

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
			if (OTHER_MODULES.stream().anyMatch(block::contains)) {
				continue;
			}
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

	/** Tagged parts of the snippet sources by tag, with tabs shown as four spaces as the README does. */
	private static Map<String, String> snippets() throws IOException {
		Map<String, String> snippets = new LinkedHashMap<>();
		try (Stream<Path> files = Files.list(SNIPPETS)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).sorted().toList()) {
				Matcher tagged = TAGGED.matcher(Files.readString(file));
				while (tagged.find()) {
					snippets.put(tagged.group(1), tagged.group(2).replace("\t", "    "));
				}
			}
		}
		return snippets;
	}

}
