package dev.locksmith.api;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.locksmith.actuate.LocksEndpoint;
import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.annotation.OnBusy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime hints that the modules list in their {@code META-INF/spring/aot.factories}, as AOT processing
 * loads them, cover every Lua script, the annotation the aspect reads, context-propagation's accessor and
 * the endpoint's answers: what a native image would otherwise leave out.
 */
class RuntimeHintsTests {

	private static final RuntimeHints hints = registered();

	private static RuntimeHints registered() {
		RuntimeHints hints = new RuntimeHints();
		ClassLoader classLoader = RuntimeHintsTests.class.getClassLoader();
		SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories", classLoader)
			.load(RuntimeHintsRegistrar.class)
			.forEach((registrar) -> registrar.registerHints(hints, classLoader));
		return hints;
	}

	static List<String> luaScripts() throws IOException {
		Resource[] scripts = new PathMatchingResourcePatternResolver().getResources("classpath*:dev/locksmith/redis/*.lua");
		return Arrays.stream(scripts).map(Resource::getFilename).toList();
	}

	@Test
	void theRedisStoreHasItsScripts() throws IOException {
		assertThat(luaScripts()).contains("acquire.lua", "release.lua", "hand-on.lua", "fenced-write.lua");
	}

	@ParameterizedTest
	@MethodSource("luaScripts")
	void eachLuaScriptIsAResource(String script) {
		assertThat(RuntimeHintsPredicates.resource().forResource("dev/locksmith/redis/" + script)).accepts(hints);
	}

	@Test
	void theAspectCanReadEveryAttributeOfTheAnnotation() {
		assertThat(DistributedLock.class.getDeclaredMethods()).isNotEmpty()
			.allSatisfy((attribute) -> assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(attribute))
				.accepts(hints));
		assertThat(Stream.of(OnBusy.class, LockMode.class))
			.allSatisfy((attributeType) -> assertThat(RuntimeHintsPredicates.reflection()
				.onType(attributeType)
				.withMemberCategory(MemberCategory.ACCESS_DECLARED_FIELDS)).accepts(hints));
	}

	@Test
	void contextPropagationFindsTheLockContextAccessor() {
		assertThat(RuntimeHintsPredicates.resource()
			.forResource("META-INF/services/io.micrometer.context.ThreadLocalAccessor")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(TypeReference.of("dev.locksmith.core.LockContextAccessor"))
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS)).accepts(hints);
	}

	static Stream<Class<?>> endpointAnswers() {
		return Stream.of(LocksEndpoint.InstanceLocks.class, LocksEndpoint.HeldLock.class,
				LocksEndpoint.ClusterLocks.class, LocksEndpoint.ClusterLock.class, LocksEndpoint.Holder.class,
				LocksEndpoint.ForcedRelease.class);
	}

	@ParameterizedTest
	@MethodSource("endpointAnswers")
	void jacksonCanWriteEachComponentOfTheEndpointsAnswers(Class<?> answer) {
		assertThat(RuntimeHintsPredicates.reflection().onType(answer)).accepts(hints);
		assertThat(answer.getRecordComponents()).isNotEmpty()
			.extracting(RecordComponent::getAccessor)
			.allSatisfy((accessor) -> assertThat(invocable(accessor)).accepts(hints));
	}

	@Test
	void theEndpointsAnswersAreEveryRecordTheReadOperationDeclares() {
		assertThat(LocksEndpoint.LocksDescriptor.class.getPermittedSubclasses()).allMatch(
				(answer) -> endpointAnswers().anyMatch(answer::equals), "listed in endpointAnswers()");
		assertThat(RuntimeHintsPredicates.reflection().onType(LocksEndpoint.Mode.class)).accepts(hints);
	}

	private static Predicate<RuntimeHints> invocable(Method method) {
		return RuntimeHintsPredicates.reflection().onMethodInvocation(method);
	}

}
