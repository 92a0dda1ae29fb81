package dev.locksmith.benchmarks.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Finds the version of a Maven artifact on the classpath from the {@code pom.properties} its jar carries. */
final class ArtifactVersions {

	private ArtifactVersions() {
	}

	/** The version of {@code groupId:artifactId}, or "this build" for a module of this project built in the reactor. */
	static String of(String artifact) {
		String[] coordinates = artifact.split(":");
		String resource = "META-INF/maven/" + coordinates[0] + "/" + coordinates[1] + "/pom.properties";
		try (InputStream in = ArtifactVersions.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				return "this build";
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
