import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipFile;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks that a Central bundle holds what Maven Central requires of each published module: the pom with
 * name, description, url, licenses, developers and scm (its own or its parent's, which is in the bundle
 * too), the jar, -sources.jar and -javadoc.jar, an .md5 and .sha1 for each file, and an .asc for each when
 * signing is on; that a published module has no other file there (no -tests.jar); and that the modules
 * that are not published are not in it.
 * Usage: java .ci/CheckCentralBundle.java BUNDLE.zip VERSION [--signed]
 */
public class CheckCentralBundle {

	static final String GROUP = "dev/locksmith/";
	static final String PARENT = "locksmith-parent";
	static final List<String> PUBLISHED = List.of("locksmith-core", "locksmith-redis", "locksmith-inmemory", "locksmith-jdbc",
			"locksmith-spring", "locksmith-actuator", "lock-spring-boot-autoconfigure", "lock-spring-boot-starter",
			"locksmith-test", "locksmith-embedded-redis", "locksmith-adapters", "locksmith-kotlin");
	static final List<String> NOT_PUBLISHED = List.of("sample-app", "locksmith-benchmarks", "locksmith-test-fixtures");
	static final List<String> METADATA = List.of("name", "description", "url", "licenses", "developers", "scm");

	public static void main(String[] args) throws Exception {
		Path bundle = Path.of(args[0]);
		String version = args[1];
		boolean signed = args.length > 2 && args[2].equals("--signed");
		List<String> problems = new ArrayList<>();
		Map<String, byte[]> entries = new TreeMap<>();
		try (ZipFile zip = new ZipFile(bundle.toFile())) {
			for (var entry : java.util.Collections.list(zip.entries())) {
				try (InputStream in = zip.getInputStream(entry)) {
					entries.put(entry.getName(), in.readAllBytes());
				}
			}
		}
		Element parent = pom(entries, PARENT, version, problems);
		List<String> modules = new ArrayList<>(PUBLISHED);
		modules.add(0, PARENT);
		for (String module : modules) {
			String dir = GROUP + module + "/" + version + "/" + module + "-" + version;
			List<String> files = new ArrayList<>(List.of(dir + ".pom"));
			if (!module.equals(PARENT)) {
				files.addAll(List.of(dir + ".jar", dir + "-sources.jar", dir + "-javadoc.jar"));
				Element pom = pom(entries, module, version, problems);
				for (String field : METADATA) {
					if (pom != null && child(pom, field) == null && (parent == null || child(parent, field) == null)) {
						problems.add(module + ": the pom has no <" + field + ">, nor has its parent");
					}
				}
				if (pom != null && child(pom, "url") != null) {
					problems.add(module + ": its own <url> (the parent's is meant to be inherited)");
				}
			}
			else if (parent != null) {
				for (String field : METADATA) {
					if (child(parent, field) == null) {
						problems.add(PARENT + ": the pom has no <" + field + ">");
					}
				}
			}
			for (String file : files) {
				List<String> needed = new ArrayList<>(List.of(file, file + ".md5", file + ".sha1"));
				if (signed) {
					needed.add(file + ".asc");
				}
				needed.stream().filter((name) -> !entries.containsKey(name)).forEach((name) -> problems.add("missing " + name));
			}
		}
		for (String module : PUBLISHED) {
			String prefix = GROUP + module + "/" + version + "/" + module + "-" + version;
			List<String> expected = List.of(prefix + ".pom", prefix + ".jar", prefix + "-sources.jar", prefix + "-javadoc.jar");
			entries.keySet().stream().filter((name) -> name.startsWith(GROUP + module + "/") && !name.endsWith("/"))
				.filter((name) -> !expected.contains(name.replaceFirst("\\.(md5|sha1|sha256|sha512|asc)$", "")))
				.forEach((name) -> problems.add("not to be published, but in the bundle: " + name
						+ (name.contains("-tests.jar") ? " (a test jar: nothing outside the build needs it)" : "")));
		}
		for (String module : NOT_PUBLISHED) {
			entries.keySet().stream().filter((name) -> name.startsWith(GROUP + module + "/") && !name.endsWith("/"))
				.forEach((name) -> problems.add("not to be published, but in the bundle: " + name));
		}
		entries.keySet().stream().filter((name) -> !name.endsWith("/") && !name.matches(".*\\.(md5|sha1|sha256|sha512)$"))
			.forEach((name) -> System.out.println("[release-check]   " + name));
		if (!problems.isEmpty()) {
			problems.forEach((problem) -> System.out.println("[release-check] FAILED: " + problem));
			System.exit(1);
		}
		System.out.println("[release-check] the bundle holds what Central requires for " + PARENT + " and "
				+ String.join(", ", PUBLISHED) + (signed ? ", signed" : " (unsigned: no key)") + "; "
				+ entries.size() + " files");
	}

	static Element pom(Map<String, byte[]> entries, String module, String version, List<String> problems) throws Exception {
		byte[] pom = entries.get(GROUP + module + "/" + version + "/" + module + "-" + version + ".pom");
		if (pom == null) {
			problems.add("missing the pom of " + module);
			return null;
		}
		Path temp = Files.createTempFile("pom", ".xml");
		Files.write(temp, pom);
		Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(temp.toFile());
		Files.delete(temp);
		return document.getDocumentElement();
	}

	static Element child(Element element, String name) {
		for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element child && child.getTagName().equals(name) && !child.getTextContent().isBlank()) {
				return child;
			}
		}
		return null;
	}

}
