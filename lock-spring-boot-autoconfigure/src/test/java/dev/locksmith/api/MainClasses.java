package dev.locksmith.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.locksmith.actuate.LocksEndpoint;
import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.aop.LockDeclarationException;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.jdbc.JdbcLockStore;
import dev.locksmith.kotlin.CoroutineLocks;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

/**
 * The compiled main classes of the starter's modules (core, the stores, the aspect, the Actuator parts and
 * the auto-configuration, the Kotlin API), from each module's classes directory or jar, as this build put them on the class
 * path.
 */
final class MainClasses {

	/** One class of each module, by module. */
	private static final Map<String, Class<?>> MODULES = Map.of("locksmith-core", DistributedLock.class,
			"locksmith-redis", RedisLockStore.class, "locksmith-inmemory", InMemoryLockBackend.class,
			"locksmith-jdbc", JdbcLockStore.class,
			"locksmith-spring", LockDeclarationException.class, "locksmith-actuator", LocksEndpoint.class,
			"lock-spring-boot-autoconfigure", LocksmithAutoConfiguration.class, "locksmith-kotlin",
			CoroutineLocks.class);

	private static final Map<String, Path> LOCATIONS = new TreeMap<>(MODULES.entrySet()
		.stream()
		.collect(Collectors.toMap(Map.Entry::getKey, (module) -> location(module.getValue()))));

	private MainClasses() {
	}

	/** The modules' artifact ids. */
	static Set<String> modules() {
		return LOCATIONS.keySet();
	}

	/** Where each module's classes are: a directory or a jar. */
	static Collection<Path> locations() {
		return LOCATIONS.values();
	}

	/**
	 * Every class file of the modules by its name within its module, such as
	 * {@code dev/locksmith/core/LockService.class}.
	 */
	static Map<String, Path> classFiles() {
		Map<String, Path> files = new TreeMap<>();
		modules().forEach((module) -> files.putAll(classFiles(module)));
		return files;
	}

	/** The class files of {@code module} by their names within it. */
	static Map<String, Path> classFiles(String module) {
		Map<String, Path> files = new TreeMap<>();
		Path root = root(LOCATIONS.get(module));
		try (Stream<Path> walk = Files.walk(root)) {
			walk.filter((path) -> path.toString().endsWith(".class"))
				.forEach((path) -> files.put(root.relativize(path).toString(), path));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return files;
	}

	private static Path location(Class<?> type) {
		try {
			return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Path root(Path location) {
		if (Files.isDirectory(location)) {
			return location;
		}
		try {
			return FileSystems.newFileSystem(location).getPath("/");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
