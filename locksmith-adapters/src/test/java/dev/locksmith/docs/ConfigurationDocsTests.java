package dev.locksmith.docs;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The property tables of docs/guide/configuration.md list exactly the properties that the build's
 * configuration metadata declares for Locksmith (this module's and the auto-configuration's), each with
 * its default. Lives here because only this module sees both modules' metadata.
 */
class ConfigurationDocsTests {

	private static final Path PAGE = Path.of("..", "docs", "guide", "configuration.md");

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
				assertThat(documented.get(name)).as("documented default of " + name)
					.containsIgnoringCase(String.valueOf(value).replace('_', '-'));
			}
		});
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
