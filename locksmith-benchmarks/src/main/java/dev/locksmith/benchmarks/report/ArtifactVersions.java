package dev.locksmith.benchmarks.report;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Properties;

/**
 * Finds the version of a Maven artifact on the classpath: from the {@code pom.properties} its jar
 * carries, else from the name of its jar in the local Maven repository.
 */
final class ArtifactVersions {

	private ArtifactVersions() {
	}

	/** The version of {@code groupId:artifactId}, or "unknown". */
	static String of(String artifact) {
		String[] coordinates = artifact.split(":");
		String resource = "META-INF/maven/" + coordinates[0] + "/" + coordinates[1] + "/pom.properties";
		try (InputStream in = ArtifactVersions.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				return fromJarName(coordinates[1]);
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The version in {@code .../<artifactId>/<version>/<artifactId>-<version>.jar} on the class path. */
	private static String fromJarName(String artifactId) {
		return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
			.map(Path::of)
			.filter((jar) -> jar.getParent() != null && jar.getFileName()
				.toString()
				.equals(artifactId + "-" + jar.getParent().getFileName() + ".jar"))
			.map((jar) -> Objects.toString(jar.getParent().getFileName()))
			.findFirst()
			.orElse("unknown");
	}

}
