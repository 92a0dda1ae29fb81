package dev.locksmith.api;

import java.net.URISyntaxException;
import java.nio.file.Path;

import dev.locksmith.annotation.DistributedLock;

/** Where the starter's compiled main classes are. */
final class MainClasses {

	private MainClasses() {
	}

	static Path path() {
		try {
			return Path.of(DistributedLock.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
