package dev.locksmith.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The in-memory store, {@code locksmith.store=in-memory}: locks within this JVM, for tests. Its beans live
 * in {@code dev.locksmith:locksmith-test}, which this module cannot depend on, so they are imported by
 * name when that module is on the class path; without it, no store is set up and the lock service stops
 * the startup saying what is missing.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(LockStoreCondition.class)
@ConditionalOnClass(name = InMemoryStoreConfiguration.TEST_MODULE_CONFIGURATION)
@Import(InMemoryStoreConfiguration.TestModuleImport.class)
class InMemoryStoreConfiguration {

	/** The configuration of the in-memory store's beans in {@code locksmith-test}. */
	static final String TEST_MODULE_CONFIGURATION = "dev.locksmith.test.autoconfigure.InMemoryLockStoreConfiguration";

	/** Imports {@link #TEST_MODULE_CONFIGURATION}, which only its name can reach from here. */
	static class TestModuleImport implements ImportSelector {

		@Override
		public String[] selectImports(AnnotationMetadata importingClassMetadata) {
			return new String[] { TEST_MODULE_CONFIGURATION };
		}

	}

}
