package dev.locksmith.api;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins the public types of the starter and their public and protected members: anything made public
 * becomes part of the contract, so it has to be added here (types) or
 * to {@code public-members.txt} (members) on purpose. A failing run writes what it found to
 * {@code target/public-members.txt}.
 */
class PublicApiTests {

	/** Each published module's public types, by module. */
	private static final Map<String, List<String>> CONTRACT = Map.of(
			"locksmith-core", List.of(
					// what applications write against
					"dev.locksmith.annotation.DistributedLock", "dev.locksmith.annotation.OnBusy",
					"dev.locksmith.annotation.LockMode", "dev.locksmith.core.LockService",
					"dev.locksmith.core.LockHandle", "dev.locksmith.core.LockOptions", "dev.locksmith.core.LockInfo",
					"dev.locksmith.core.LockContext", "dev.locksmith.core.ReactiveLockContext",
					"dev.locksmith.core.DistributedLockException", "dev.locksmith.core.LockBusyException",
					"dev.locksmith.core.LockUnavailableException", "dev.locksmith.core.LockLostException",
					"dev.locksmith.core.LockLostEvent", "dev.locksmith.core.LockEventListener",
					"dev.locksmith.core.FencedValues",
					// the engine's observations, and the conventions an application may replace
					"dev.locksmith.core.observation.LockObservationDocumentation",
					"dev.locksmith.core.observation.LockObservationContext",
					"dev.locksmith.core.observation.LockAcquisitionContext",
					"dev.locksmith.core.observation.LockHoldContext", "dev.locksmith.core.observation.LockOutcome",
					"dev.locksmith.core.observation.LockAcquisitionObservationConvention",
					"dev.locksmith.core.observation.LockHoldObservationConvention",
					"dev.locksmith.core.observation.DefaultLockAcquisitionObservationConvention",
					"dev.locksmith.core.observation.DefaultLockHoldObservationConvention",
					// a store of one's own, and the engine that runs on it
					"dev.locksmith.core.LockStore", "dev.locksmith.core.LockOwner", "dev.locksmith.core.LockShare",
					"dev.locksmith.core.StoreAdministration", "dev.locksmith.core.LockAdministration",
					"dev.locksmith.core.ReleaseNotifications", "dev.locksmith.core.StoreBusyException",
					"dev.locksmith.core.StoreFailures", "dev.locksmith.core.KeyMasking", "dev.locksmith.core.OwnerEntries",
					"dev.locksmith.core.DefaultLockService",
					// what a store lists of its wait queues, for the cluster view's waiters and wait-for graph
					"dev.locksmith.core.WaitQueue", "dev.locksmith.core.StoredOwner",
					// for entry points that run calls under locks, such as the aspect and the leader election
					"dev.locksmith.core.LockedCalls", "dev.locksmith.core.HeldLock",
					"dev.locksmith.core.ReactiveLockFrames", "dev.locksmith.core.OutageLog",
					// found by ServiceLoader when context-propagation is on the class path
					"dev.locksmith.core.LockContextAccessor"),
			// for applications that wire Locksmith without auto-configuration: one entry type per store
			"locksmith-redis", List.of("dev.locksmith.redis.RedisLockStore", "dev.locksmith.redis.RedlockLockStore",
					"dev.locksmith.redis.RedisFencedValues"),
			"locksmith-jdbc", List.of("dev.locksmith.jdbc.JdbcLockStore", "dev.locksmith.jdbc.JdbcLockSchema",
					"dev.locksmith.jdbc.JdbcFencedValues"),
			"locksmith-inmemory", List.of("dev.locksmith.test.inmemory.InMemoryLockBackend",
					"dev.locksmith.test.inmemory.InMemoryFencedValues"),
			// beans an application may replace (@ConditionalOnMissingBean) or order, and the startup failure
			"locksmith-spring", List.of("dev.locksmith.aop.DistributedLockAdvisor",
					"dev.locksmith.aop.DistributedLockMethodValidator",
					"dev.locksmith.aop.LeaseCheckingTransactionListener", "dev.locksmith.aop.LockDeclarationException"),
			// withLock for coroutines: the file's class, which Java sees
			"locksmith-kotlin", List.of("dev.locksmith.kotlin.CoroutineLocks"),
			"locksmith-actuator", List.of("dev.locksmith.actuate.LocksEndpoint",
					"dev.locksmith.actuate.LocksHealthIndicator", "dev.locksmith.actuate.LostLeaseTracker",
					"dev.locksmith.actuate.LockDeadlockEvent"),
			"lock-spring-boot-autoconfigure", List.of("dev.locksmith.autoconfigure.LocksmithAutoConfiguration",
					"dev.locksmith.autoconfigure.LocksmithAopAutoConfiguration",
					"dev.locksmith.autoconfigure.LocksmithProperties",
					// the qualifier that picks the Redis connection factory for locks, as @FlywayDataSource does
					"dev.locksmith.autoconfigure.LockConnectionFactory",
					// and the one that picks the DataSource of the PostgreSQL store
					"dev.locksmith.autoconfigure.LockDataSource",
					"dev.locksmith.autoconfigure.endpoint.LocksEndpointAutoConfiguration",
					"dev.locksmith.autoconfigure.endpoint.LocksEndpointProperties",
					"dev.locksmith.autoconfigure.health.LocksHealthContributorAutoConfiguration",
					"dev.locksmith.autoconfigure.scheduling.LocksmithSchedulingAutoConfiguration",
					"dev.locksmith.autoconfigure.web.LocksmithWebAutoConfiguration"));

	@Test
	void eachModulePublishesOnlyItsContract() {
		assertThat(MainClasses.modules()).containsExactlyInAnyOrderElementsOf(CONTRACT.keySet());
		CONTRACT.forEach((module, types) -> assertThat(publicTopLevelTypes(module)).as(module)
			.containsExactlyInAnyOrderElementsOf(types));
	}

	@Test
	void onlyTheListedMembersArePublic() throws Exception {
		List<String> members = MainClasses.modules()
			.stream()
			.flatMap((module) -> publicTopLevelTypes(module).stream())
			.map(PublicApiTests::load)
			.flatMap(PublicApiTests::members)
			.sorted()
			.toList();
		List<String> expected;
		try (var listed = PublicApiTests.class.getResourceAsStream("public-members.txt")) {
			expected = new String(listed.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
		}
		if (!members.equals(expected)) {
			Files.write(Path.of("target", "public-members.txt"), members);
		}
		assertThat(members).as("public members; a new one is part of the contract").containsExactlyElementsOf(expected);
	}

	/** The type's public and protected constructors, methods and fields, and those of its public nested types. */
	private static Stream<String> members(Class<?> type) {
		Stream<String> constructors = Stream.of(type.getDeclaredConstructors())
			.filter((constructor) -> isApi(constructor.getModifiers()))
			.map((constructor) -> type.getName() + parameters(constructor.getParameterTypes()));
		Stream<String> methods = Stream.of(type.getDeclaredMethods())
			.filter((method) -> isApi(method.getModifiers()) && !method.isSynthetic() && !method.isBridge())
			.map((method) -> type.getName() + "#" + method.getName() + parameters(method.getParameterTypes()));
		Stream<String> fields = Stream.of(type.getDeclaredFields())
			.filter((field) -> isApi(field.getModifiers()) && !field.isSynthetic())
			.map((field) -> type.getName() + "#" + field.getName());
		Stream<String> nested = Stream.of(type.getDeclaredClasses())
			.filter((inner) -> isApi(inner.getModifiers()))
			.flatMap((inner) -> Stream.concat(Stream.of(inner.getName()), members(inner)));
		return Stream.of(constructors, methods, fields, nested).flatMap((part) -> part);
	}

	private static boolean isApi(int modifiers) {
		return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
	}

	private static String parameters(Class<?>[] types) {
		return Stream.of(types).map(Class::getSimpleName).collect(Collectors.joining(",", "(", ")"));
	}

	private static List<String> publicTopLevelTypes(String module) {
		return MainClasses.classFiles(module)
			.keySet()
			.stream()
			.filter((file) -> !file.contains("$") && !file.endsWith("package-info.class"))
			.map((file) -> file.substring(0, file.length() - ".class".length()).replace('/', '.'))
			.filter(PublicApiTests::isPublic)
			.toList();
	}

	private static boolean isPublic(String type) {
		return Modifier.isPublic(load(type).getModifiers());
	}

	private static Class<?> load(String type) {
		try {
			return Class.forName(type, false, PublicApiTests.class.getClassLoader());
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
