package dev.locksmith.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/** The package dependencies that ARCHITECTURE.md states, checked on the compiled main classes. */
class ArchitectureTests {

	/** The engine's types for entry points that run calls under locks (the aspect, adapters), not for stores. */
	private static final List<String> LOCKED_CALL_TYPES = List.of("dev.locksmith.core.LockedCalls",
			"dev.locksmith.core.HeldLock", "dev.locksmith.core.ReactiveLockFrames");

	private static final String LOCK_CONTEXT_ACCESSOR = "dev.locksmith.core.LockContextAccessor";

	/** The starter's main classes, and nothing else on the class path. */
	private static final JavaClasses LOCKSMITH = new ClassFileImporter()
		.importLocations(MainClasses.locations().stream().map(ArchitectureTests::location).toList());

	@Test
	void coreImportsNoSpringAndNoStore() {
		check(noClasses().that()
			.resideInAPackage("dev.locksmith.core..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework..", "dev.locksmith.redis..",
					"dev.locksmith.aop..", "dev.locksmith.actuate..", "dev.locksmith.autoconfigure..",
					"dev.locksmith.test..", "io.lettuce..", "redis.clients.."));
	}

	/** A store knows the engine's SPI only: not the aspect, the Actuator parts, Spring Boot or another store. */
	@Test
	void storesImportNoAspectNoBootAndNoOtherStore() {
		check(noClasses().that()
			.resideInAPackage("dev.locksmith.redis..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.locksmith.aop..", "dev.locksmith.actuate..", "dev.locksmith.autoconfigure..",
					"dev.locksmith.test..", "org.springframework.boot.."));
		check(noClasses().that()
			.resideInAPackage("dev.locksmith.test.inmemory..")
			.should()
			.dependOnClassesThat()
			.resideOutsideOfPackages("java..", "dev.locksmith.core..", "dev.locksmith.annotation..",
					"dev.locksmith.test.inmemory..", "org.jspecify.annotations.."));
		check(noClasses().that()
			.resideInAPackage("dev.locksmith.jdbc..")
			.should()
			.dependOnClassesThat()
			.resideOutsideOfPackages("java..", "javax.sql..", "dev.locksmith.core..", "dev.locksmith.jdbc..",
					"org.postgresql..", "org.jspecify.annotations.."));
	}

	/** The aspect runs on Spring Framework and the engine: no store, no Spring Boot, no Actuator. */
	@Test
	void theAspectImportsNoStoreAndNoBoot() {
		check(noClasses().that()
			.resideInAPackage("dev.locksmith.aop..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.locksmith.redis..", "dev.locksmith.test..", "dev.locksmith.actuate..",
					"dev.locksmith.autoconfigure..", "org.springframework.boot..", "io.lettuce..", "redis.clients.."));
	}

	/** The endpoint and health indicator read the engine's API only. */
	@Test
	void theActuatorPartsImportNoStoreAndNoAspect() {
		check(noClasses().that()
			.resideInAPackage("dev.locksmith.actuate..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.locksmith.redis..", "dev.locksmith.test..", "dev.locksmith.aop..",
					"dev.locksmith.autoconfigure.."));
	}

	/** Java users pay nothing for Kotlin: only the Kotlin module links Kotlin's classes. */
	@Test
	void onlyTheKotlinModuleImportsKotlin() {
		check(noClasses().that()
			.resideOutsideOfPackage("dev.locksmith.kotlin..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("kotlin..", "kotlinx.."));
	}

	@Test
	void annotationImportsNothing() {
		check(noClasses().that()
			.resideInAPackage("dev.locksmith.annotation..")
			.should()
			.dependOnClassesThat()
			.resideOutsideOfPackages("java..", "dev.locksmith.annotation..", "org.jspecify.annotations.."));
	}

	/** Found by {@code ServiceLoader} only when context-propagation is there, and loaded by nothing else. */
	@Test
	void onlyTheLockContextAccessorNeedsTheOptionalContextPropagation() {
		check(noClasses().that()
			.doNotHaveFullyQualifiedName(LOCK_CONTEXT_ACCESSOR)
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.micrometer.context..")
			.orShould()
			.dependOnClassesThat()
			.haveFullyQualifiedName(LOCK_CONTEXT_ACCESSOR));
	}

	@Test
	void propertiesArePlainDataThatImportNoAspect() {
		check(noClasses().that()
			.haveSimpleNameEndingWith("Properties")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.locksmith.aop.."));
	}

	/**
	 * A store, Locksmith's as one of a user's own, is written on the store SPI: the locked call of the entry
	 * points is not its business.
	 */
	@Test
	void storesUseNoLockedCallTypes() {
		check(noClasses().that()
			.resideInAnyPackage("dev.locksmith.redis..", "dev.locksmith.test.inmemory..", "dev.locksmith.jdbc..")
			.should()
			.dependOnClassesThat(DescribedPredicate.describe("are the engine's locked-call types",
					(type) -> LOCKED_CALL_TYPES.contains(topLevelName(type)))));
	}

	/** The engine keeps what is not API package-private: no package of Locksmith's is an "internal" one. */
	@Test
	void noInternalPackage() {
		assertThat(LOCKSMITH.stream().map(JavaClass::getPackageName).filter((name) -> name.contains(".internal")))
			.isEmpty();
	}

	private static String topLevelName(JavaClass type) {
		return type.getFullName().split("\\$")[0];
	}

	private static void check(ArchRule rule) {
		rule.check(LOCKSMITH);
	}

	private static Location location(Path classes) {
		if (Files.isDirectory(classes)) {
			return Location.of(classes);
		}
		try {
			return Location.of(new JarFile(classes.toFile()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
