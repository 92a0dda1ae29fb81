package dev.locksmith.api;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.locksmith.annotation.DistributedLock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins the public types of the starter: anything made public outside an {@code internal} package
 * becomes part of the contract, so it has to be added here on purpose.
 */
class PublicApiTests {

	private static final List<String> API = List.of(
			// what applications write against
			"dev.locksmith.annotation.DistributedLock", "dev.locksmith.annotation.OnBusy",
			"dev.locksmith.core.LockService", "dev.locksmith.core.LockHandle", "dev.locksmith.core.LockOptions",
			"dev.locksmith.core.LockInfo", "dev.locksmith.core.LockContext", "dev.locksmith.core.ReactiveLockContext",
			"dev.locksmith.core.DistributedLockException", "dev.locksmith.core.LockBusyException",
			"dev.locksmith.core.LockUnavailableException", "dev.locksmith.core.LockLostException",
			"dev.locksmith.core.LockLostEvent", "dev.locksmith.core.LockEventListener",
			"dev.locksmith.redis.RedisFencedValues", "dev.locksmith.core.FencedValues");

	private static final List<String> SPI = List.of(
			// a store of one's own, and the engine that runs on it
			"dev.locksmith.core.LockBackend", "dev.locksmith.core.LockAdministration",
			"dev.locksmith.core.ReleaseNotifications", "dev.locksmith.core.DefaultLockService");

	private static final List<String> STORES = List.of(
			// for applications that wire Locksmith without auto-configuration
			"dev.locksmith.redis.RedisLockBackend", "dev.locksmith.redis.RedisLockAdministration",
			"dev.locksmith.redis.RedisReleaseNotifications", "dev.locksmith.redis.RedisLockKeys",
			"dev.locksmith.redlock.RedlockLockBackend", "dev.locksmith.redlock.RedlockLockAdministration",
			"dev.locksmith.redlock.RedlockReleaseNotifications", "dev.locksmith.redlock.RedlockServers");

	private static final List<String> BEANS = List.of(
			// beans an application may replace (@ConditionalOnMissingBean) or order
			"dev.locksmith.aop.DistributedLockAdvisor", "dev.locksmith.aop.DistributedLockMethodValidator",
			"dev.locksmith.aop.LeaseCheckingTransactionListener", "dev.locksmith.actuate.LocksEndpoint",
			"dev.locksmith.actuate.LocksHealthIndicator", "dev.locksmith.actuate.LockMetricsListener",
			"dev.locksmith.actuate.LostLeaseTracker");

	private static final List<String> AUTO_CONFIGURATION = List.of(
			"dev.locksmith.autoconfigure.LocksmithAutoConfiguration",
			"dev.locksmith.autoconfigure.LocksmithAopAutoConfiguration",
			"dev.locksmith.autoconfigure.LocksmithRedlockAutoConfiguration",
			"dev.locksmith.autoconfigure.LocksmithProperties", "dev.locksmith.autoconfigure.ConditionalOnLockStore",
			// the qualifier that picks the Redis connection factory for locks, as @FlywayDataSource does
			"dev.locksmith.autoconfigure.LockConnectionFactory",
			"dev.locksmith.autoconfigure.endpoint.LocksEndpointAutoConfiguration",
			"dev.locksmith.autoconfigure.health.LocksHealthContributorAutoConfiguration",
			"dev.locksmith.autoconfigure.metrics.LocksmithMetricsAutoConfiguration",
			"dev.locksmith.autoconfigure.web.LocksmithWebAutoConfiguration");

	@Test
	void onlyTheContractIsPublicOutsideInternalPackages() throws Exception {
		List<String> expected = Stream.of(API, SPI, STORES, BEANS, AUTO_CONFIGURATION).flatMap(List::stream).toList();
		assertThat(publicTopLevelTypes()).containsExactlyInAnyOrderElementsOf(expected);
	}

	private static List<String> publicTopLevelTypes() throws IOException, URISyntaxException {
		Path classes = Path.of(DistributedLock.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		try (Stream<Path> files = Files.walk(classes)) {
			return files.map((file) -> classes.relativize(file).toString())
				.filter((file) -> file.endsWith(".class") && !file.contains("$") && !file.endsWith("package-info.class"))
				.map((file) -> file.substring(0, file.length() - ".class".length()).replace('/', '.'))
				.filter((type) -> !type.contains(".internal."))
				.filter(PublicApiTests::isPublic)
				.toList();
		}
	}

	private static boolean isPublic(String type) {
		try {
			return Modifier.isPublic(Class.forName(type, false, PublicApiTests.class.getClassLoader()).getModifiers());
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
