package dev.locksmith.aop;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Mono;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.autoconfigure.LocksmithProperties;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** A wrong {@code @DistributedLock} stops the application at startup and says where and why. */
@ExtendWith(OutputCaptureExtension.class)
class DistributedLockStartupTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private ApplicationContextRunner runner() {
		return AspectContexts.onRedis(redisServer.server());
	}

	static Stream<Arguments> mistakes() {
		return Stream.of(
				Arguments.of(UnparsableKey.class,
						"@DistributedLock on UnparsableKey.run(String): key expression '#id +' does not parse"),
				Arguments.of(NotADuration.class,
						"@DistributedLock on NotADuration.run(): ttl 'soon' is not a duration; use 500ms, 30s, PT1M or a placeholder"),
				Arguments.of(ZeroTtl.class, "@DistributedLock on ZeroTtl.run(): ttl must be at least 1ms, was PT0S"),
				Arguments.of(PermitsWithRead.class, "@DistributedLock on PermitsWithRead.run(): permits (2) do not "
						+ "combine with mode READ: readers share the lock without a limit; use permits with mode WRITE"),
				Arguments.of(ZeroPermits.class, "@DistributedLock on ZeroPermits.run(): permits must be at least 1, was 0"),
				Arguments.of(NegativeWait.class,
						"@DistributedLock on NegativeWait.run(): waitTime must not be negative, was PT-1S"),
				Arguments.of(UnresolvedPlaceholder.class, "@DistributedLock on UnresolvedPlaceholder.run(): ttl '${nowhere}'"),
				Arguments.of(NameWithColon.class,
						"@DistributedLock on NameWithColon.run(String): name must not contain ':', was 'billing:invoice'"),
				Arguments.of(SkipReturningPrimitive.class,
						"@DistributedLock on SkipReturningPrimitive.count(): onBusy = SKIP cannot return a int"),
				Arguments.of(HoldLongerThanTtl.class, "@DistributedLock on HoldLongerThanTtl.run(): "
						+ "holdAtLeast must not exceed ttl, was PT11S with a ttl of PT10S"),
				Arguments.of(HoldLongerThanDefaultTtl.class, "@DistributedLock on HoldLongerThanDefaultTtl.run(): "
						+ "holdAtLeast must not exceed ttl, was PT1M with a ttl of PT30S (the ttl is locksmith.default-ttl)"),
				Arguments.of(NegativeHold.class,
						"@DistributedLock on NegativeHold.run(): holdAtLeast must not be negative, was PT-1S"),
				Arguments.of(HoldNotADuration.class,
						"@DistributedLock on HoldNotADuration.run(): holdAtLeast 'soon' is not a duration"),
				Arguments.of(MisspelledParameter.class,
						"@DistributedLock on MisspelledParameter.pay(String, long): key expression '#orderID' names "
								+ "#orderID, which is not a parameter of the method; its parameters are #orderId, #cents "
								+ "(or #p0 to #p1); did you mean #orderId?"),
				Arguments.of(NestedUnknownParameter.class,
						"@DistributedLock on NestedUnknownParameter.pay(String, long): key expression "
								+ "'{#orderId, #customer.id}' names #customer, which is not a parameter of the method"),
				Arguments.of(IndexBeyondTheParameters.class,
						"@DistributedLock on IndexBeyondTheParameters.pay(String, long): key expression '#p2' names #p2, "
								+ "but the method has parameters #p0 to #p1"),
				Arguments.of(MissingFallback.class,
						"@DistributedLock on MissingFallback.reserve(String): fallbackMethod needs "
								+ "String reserveLater(String[, LockBusyException]), but there is no method reserveLater "
								+ "in MissingFallback"),
				Arguments.of(FallbackWithOtherParameters.class,
						"@DistributedLock on FallbackWithOtherParameters.reserve(String): fallbackMethod needs "
								+ "String reserveLater(String[, LockBusyException]), but found only "
								+ "FallbackWithOtherParameters.reserveLater(long) returning String"),
				Arguments.of(FallbackWithOtherReturnType.class,
						"@DistributedLock on FallbackWithOtherReturnType.reserve(String): fallbackMethod needs "
								+ "String reserveLater(String[, LockBusyException]), but found only "
								+ "FallbackWithOtherReturnType.reserveLater(String) returning Mono"),
				Arguments.of(FallbackWithSkip.class,
						"@DistributedLock on FallbackWithSkip.reserve(String): fallbackMethod "
								+ "String reserveLater(String[, LockBusyException]) cannot be combined with onBusy = SKIP"),
				Arguments.of(OwnPublisherResult.class,
						"@DistributedLock on OwnPublisherResult.run(): returns OwnPublisher, a reactive type that the "
								+ "locked result cannot be returned as; declare Publisher, Mono or Flux instead"),
				Arguments.of(ParameterOfAMethodWithout.class,
						"@DistributedLock on ParameterOfAMethodWithout.run(): key expression '#id' names #id, "
								+ "but the method has no parameters"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("mistakes")
	void aWrongDeclarationStopsTheStartup(Class<?> bean, String message) {
		runner().withBean(bean).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining(message);
			FailureAnalysis analysis = StartupFailureAnalysis.of(context.getStartupFailure());
			assertThat(analysis).as("analysed by Locksmith").isNotNull();
			assertThat(analysis.getDescription()).startsWith(message);
			assertThat(analysis.getAction()).startsWith("Correct the " + message.substring(0, message.indexOf(": "))
					+ ". Every @DistributedLock is checked when its bean is created");
		});
	}

	@Test
	void everyVariableAMethodProvidesIsAccepted() {
		runner().withBean(KnownVariables.class).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aParameterNameOfAClassCompiledWithoutParametersStopsTheStartupWithAHint(@TempDir Path classes)
			throws Exception {
		Class<?> bean = compileWithoutParameterNames(classes);

		runner().withBean(bean).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining(
					"@DistributedLock on Orders.pay(String): key expression '#orderId' names #orderId, but the "
							+ "parameter names of Orders are unknown: it was compiled without -parameters. Use #p0 "
							+ "(or #a0), or compile with -parameters");
		});
	}

	private static Class<?> compileWithoutParameterNames(Path classes) throws Exception {
		Path source = Files.writeString(classes.resolve("Orders.java"), """
				public class Orders {
					@dev.locksmith.annotation.DistributedLock(key = "#orderId")
					public void pay(String orderId) {
					}
				}
				""");
		int exit = ToolProvider.getSystemJavaCompiler()
			.run(null, null, null, "-classpath", System.getProperty("java.class.path"), "-d", classes.toString(),
					source.toString());
		assertThat(exit).as("javac exit code").isZero();
		URLClassLoader loader = new URLClassLoader(new URL[] { classes.toUri().toURL() },
				DistributedLockStartupTests.class.getClassLoader());
		return loader.loadClass("Orders");
	}

	@Test
	void aMethodThatAProxyCannotInterceptIsReportedAtStartup(CapturedOutput output) {
		runner().withBean(Unreachable.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains(
					"@DistributedLock on Unreachable.hidden() has no effect: a proxy cannot intercept a private method")
				.contains("@DistributedLock on Unreachable.sealed() has no effect: a proxy cannot intercept a final method");
		});
	}

	@Test
	void theStrictSettingStopsTheStartupOnAMethodThatAProxyCannotIntercept() {
		runner().withPropertyValues("locksmith.aspect.strict=true").withBean(Unreachable.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(LockDeclarationException.class)
				.hasMessageStartingWith("@DistributedLock on Unreachable.")
				.hasMessageContaining("has no effect: a proxy cannot intercept a ")
				.hasMessageEndingWith("method, so it would run without its lock (locksmith.aspect.strict=true)");
		});
	}

	@Test
	void theStrictSettingLetsAnInterceptableMethodStart() {
		runner().withPropertyValues("locksmith.aspect.strict=true")
			.withBean(Interceptable.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void theAdvisorOrderDefaultsToThePropertiesDefault() {
		runner().run((context) -> assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
			.isEqualTo(new LocksmithProperties().getAspect().getOrder()));
	}

	@Test
	void theAdvisorOrderIsConfigurable() {
		runner().withPropertyValues("locksmith.aspect.order=42")
			.run((context) -> assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(42));
	}

	@Test
	void theAspectCanBeSwitchedOff() {
		runner().withPropertyValues("locksmith.aspect.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(DistributedLockAdvisor.class));
	}

	static class HoldLongerThanTtl {

		@DistributedLock(ttl = "10s", holdAtLeast = "11s")
		public void run() {
		}

	}

	static class HoldLongerThanDefaultTtl {

		@DistributedLock(holdAtLeast = "1m")
		public void run() {
		}

	}

	static class OwnPublisherResult {

		@DistributedLock
		public OwnPublisher run() {
			return new OwnPublisher();
		}

	}

	/** A reactive type of the application's own, which no adapter returns. */
	static class OwnPublisher implements Publisher<String> {

		@Override
		public void subscribe(Subscriber<? super String> subscriber) {
			Mono.just("own").subscribe(subscriber);
		}

	}

	static class NegativeHold {

		@DistributedLock(holdAtLeast = "-1s")
		public void run() {
		}

	}

	static class HoldNotADuration {

		@DistributedLock(holdAtLeast = "soon")
		public void run() {
		}

	}

	static class UnparsableKey {

		@DistributedLock(key = "#id +")
		public void run(String id) {
		}

	}

	static class NotADuration {

		@DistributedLock(ttl = "soon")
		public void run() {
		}

	}

	static class ZeroTtl {

		@DistributedLock(ttl = "0s")
		public void run() {
		}

	}

	static class PermitsWithRead {

		@DistributedLock(mode = LockMode.READ, permits = 2)
		public void run() {
		}

	}

	static class ZeroPermits {

		@DistributedLock(permits = 0)
		public void run() {
		}

	}

	static class NegativeWait {

		@DistributedLock(waitTime = "-1s")
		public void run() {
		}

	}

	static class UnresolvedPlaceholder {

		@DistributedLock(ttl = "${nowhere}")
		public void run() {
		}

	}

	static class NameWithColon {

		@DistributedLock(name = "billing:invoice", key = "#id")
		public void run(String id) {
		}

	}

	static class SkipReturningPrimitive {

		@DistributedLock(onBusy = OnBusy.SKIP)
		public int count() {
			return 1;
		}

	}

	static class MissingFallback {

		@DistributedLock(key = "#id", fallbackMethod = "reserveLater")
		public String reserve(String id) {
			return id;
		}

	}

	static class FallbackWithOtherParameters {

		@DistributedLock(key = "#id", fallbackMethod = "reserveLater")
		public String reserve(String id) {
			return id;
		}

		String reserveLater(long id) {
			return "later";
		}

	}

	static class FallbackWithOtherReturnType {

		@DistributedLock(key = "#id", fallbackMethod = "reserveLater")
		public String reserve(String id) {
			return id;
		}

		Mono<String> reserveLater(String id) {
			return Mono.just("later");
		}

	}

	static class FallbackWithSkip {

		@DistributedLock(key = "#id", onBusy = OnBusy.SKIP, fallbackMethod = "reserveLater")
		public String reserve(String id) {
			return id;
		}

		String reserveLater(String id) {
			return "later";
		}

	}

	static class MisspelledParameter {

		@DistributedLock(key = "#orderID")
		public void pay(String orderId, long cents) {
		}

	}

	static class NestedUnknownParameter {

		@DistributedLock(key = "{#orderId, #customer.id}")
		public void pay(String orderId, long cents) {
		}

	}

	static class IndexBeyondTheParameters {

		@DistributedLock(key = "#p2")
		public void pay(String orderId, long cents) {
		}

	}

	static class ParameterOfAMethodWithout {

		@DistributedLock(key = "#id")
		public void run() {
		}

	}

	static class KnownVariables {

		@DistributedLock(key = "#orderId + #p1 + #a1 + #root.args[0] + #root.method.name")
		public void byNameIndexAndRoot(String orderId, long cents) {
		}

		@DistributedLock(key = "#items.![#this.toUpperCase()].?[#this.length() > 1]")
		public void projection(List<String> items) {
		}

		@DistributedLock(key = "@environment.getProperty('tenant') + #order")
		public void beanReference(String order) {
		}

	}

	static class Interceptable {

		@DistributedLock
		public void run() {
		}

	}

	static class Unreachable {

		@DistributedLock
		private void hidden() {
		}

		@DistributedLock
		public final void sealed() {
		}

		void use() {
			hidden();
		}

	}

}
