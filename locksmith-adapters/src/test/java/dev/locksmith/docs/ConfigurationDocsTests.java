package dev.locksmith.docs;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The property tables of docs/guide/configuration.md list exactly the properties that the build's
 * configuration metadata declares for Locksmith (this module's and the auto-configuration's), each with
 * its default, and the YAML blocks of the README and docs/ name no Locksmith property that does not
 * exist. Lives here because only this module sees both modules' metadata.
 */
class ConfigurationDocsTests {

	private static final Path PAGE = Path.of("..", "docs", "guide", "configuration.md");

	private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

	/** Documented, but read from the Environment rather than bound, so absent from the metadata. */
	private static final Set<String> NOT_IN_METADATA = Set.of("locksmith.test.redis-image");

	/** A table row whose first cell is a Locksmith property: its name and its default cell. */
	private static final Pattern ROW = Pattern.compile(
			"^\\| `((?:locksmith|management\\.endpoint\\.locks)\\.[a-z0-9.-]+)` \\| ([^|]*) \\|", Pattern.MULTILINE);

	@Test
	void everyPropertyOfTheMetadataHasARowAndEveryRowAProperty() throws IOException {
		Map<String, Object> metadata = metadataDefaults();
		Map<String, String> documented = documentedDefaults();
		assertThat(metadata).as("Locksmith's configuration metadata").containsKey("locksmith.leader.ttl")
			.containsKey("locksmith.default-ttl");
		assertThat(documented.keySet()).as("properties documented in " + PAGE)
			.containsAll(metadata.keySet());
		assertThat(metadata.keySet()).as("properties declared in the metadata")
			.containsAll(documented.keySet().stream().filter((name) -> !NOT_IN_METADATA.contains(name)).toList());
	}

	@Test
	void everyDocumentedDefaultIsTheMetadatasDefault() throws IOException {
		Map<String, String> documented = documentedDefaults();
		metadataDefaults().forEach((name, value) -> {
			boolean scalar = value instanceof String || value instanceof Number || value instanceof Boolean;
			if (scalar && documented.containsKey(name)) {
				// an enum's default is documented as Spring Boot binds it (IN_MEMORY as in-memory), text as it is
				String text = String.valueOf(value);
				assertThat(documented.get(name)).as("documented default of " + name)
					.satisfiesAnyOf((doc) -> assertThat(doc).containsIgnoringCase(text),
							(doc) -> assertThat(doc).containsIgnoringCase(text.replace('_', '-')));
			}
		});
	}

	@Test
	void everyLocksmithPropertyInAYamlBlockOfTheDocumentationExists() throws IOException {
		Set<String> known = new HashSet<>(metadataDefaults().keySet());
		known.addAll(NOT_IN_METADATA);
		List<Path> pages = new ArrayList<>(List.of(Path.of("..", "README.md")));
		try (Stream<Path> docs = Files.walk(Path.of("..", "docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).forEach(pages::add);
		}
		int checked = 0;
		for (Path page : pages) {
			Matcher block = YAML_BLOCK.matcher(Files.readString(page));
			while (block.find()) {
				for (String key : flatKeys("", new Yaml().load(block.group(1)))) {
					if (key.startsWith("locksmith.") || key.startsWith("management.endpoint.locks.")) {
						checked++;
						assertThat(known).as("a property named in a YAML block of " + page).contains(key);
					}
				}
			}
		}
		assertThat(checked).as("Locksmith properties in YAML blocks").isPositive();
	}

	/** The dotted keys of a YAML document's leaves: {@code a: {b: 1}} gives {@code a.b}. */
	private static List<String> flatKeys(String prefix, @Nullable Object node) {
		if (!(node instanceof Map<?, ?> map)) {
			return List.of(prefix);
		}
		List<String> keys = new ArrayList<>();
		map.forEach((key, value) -> {
			String name = prefix.isEmpty() ? key.toString() : prefix + "." + key;
			keys.addAll(flatKeys(name, value));
		});
		return keys;
	}

	/** Default value by property name, null where the metadata gives none, for Locksmith's properties. */
	private static Map<String, Object> metadataDefaults() throws IOException {
		Map<String, Object> defaults = new LinkedHashMap<>();
		for (URL url : Collections.list(ConfigurationDocsTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
				List<Map<String, Object>> properties = JsonPath.read(json, "$.properties[*]");
				for (Map<String, Object> property : properties) {
					String name = (String) property.get("name");
					if (name.startsWith("locksmith.") || name.startsWith("management.endpoint.locks.")) {
						defaults.put(name, property.get("defaultValue"));
					}
				}
			}
		}
		return defaults;
	}

	/** The default cell by property name, from the page's tables. */
	private static Map<String, String> documentedDefaults() throws IOException {
		Map<String, String> rows = new LinkedHashMap<>();
		Matcher row = ROW.matcher(Files.readString(PAGE));
		while (row.find()) {
			assertThat(rows.put(row.group(1), row.group(2).toLowerCase(Locale.ROOT)))
				.as("a second row for " + row.group(1)).isNull();
		}
		return rows;
	}

}
