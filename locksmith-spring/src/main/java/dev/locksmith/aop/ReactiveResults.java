package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Recognises, through Spring's {@link ReactiveAdapterRegistry}, the results whose lock must last for
 * their subscription: {@code Mono}, {@code Flux}, any {@code Publisher}, and every type the registry
 * adapts (RxJava, Mutiny, {@code Flow.Publisher} and others on the class path). A
 * {@link CompletionStage} is not one of them: the aspect holds its lock until it completes, without
 * Reactor. A Kotlin {@code suspend fun} is one: Spring's proxy calls it as a {@code Mono} (a {@code Flux} when it
 * returns a {@code Flow}) and awaits the result that the aspect hands back, so its lock lasts until the coroutine
 * completes.
 */
final class ReactiveResults {

	/** Whether Reactor, which locks a subscription, is on the class path. */
	static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			ReactiveResults.class.getClassLoader());

	/** Whether Spring's proxies call a suspending function as a {@code Mono}: they do with this on the class path. */
	private static final boolean COROUTINES_REACTOR_PRESENT = ClassUtils
		.isPresent("kotlinx.coroutines.reactor.MonoKt", ReactiveResults.class.getClassLoader());

	private static final String FLOW = "kotlinx.coroutines.flow.Flow";

	private ReactiveResults() {
	}

	/**
	 * The adapter of {@code method}'s reactive result, or {@code null} when the result is a plain value or
	 * a {@link CompletionStage}.
	 * @throws LockDeclarationException when the result is reactive and its lock cannot last for its
	 * subscription: without Reactor, or of a type that the adapted result cannot be returned as
	 */
	static @Nullable ReactiveAdapter adapterFor(String where, Method method) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			return suspendingAdapter(where, method);
		}
		Class<?> type = method.getReturnType();
		if (CompletionStage.class.isAssignableFrom(type)) {
			return null;
		}
		ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(type);
		if (adapter == null) {
			return null;
		}
		if (!REACTOR_PRESENT) {
			throw new LockDeclarationException(where, "returns " + type.getSimpleName() + ", whose lock must "
					+ "last for its subscription, which needs Reactor; add io.projectreactor:reactor-core", null);
		}
		if (!type.isAssignableFrom(adapter.getReactiveType())) {
			throw new LockDeclarationException(where, "returns " + type.getSimpleName() + ", a reactive type that the "
					+ "locked result cannot be returned as; declare " + adapter.getReactiveType().getSimpleName()
					+ ", Mono or Flux instead", null);
		}
		return adapter;
	}

	/**
	 * The adapter of the publisher that Spring's proxy makes of a suspending function: {@code Flux} for one that
	 * returns a {@code Flow}, {@code Mono} for any other.
	 */
	private static ReactiveAdapter suspendingAdapter(String where, Method method) {
		if (!REACTOR_PRESENT || !COROUTINES_REACTOR_PRESENT) {
			throw new LockDeclarationException(where, "is a suspend fun, whose lock must last until the coroutine "
					+ "completes, which needs org.jetbrains.kotlinx:kotlinx-coroutines-reactor (dev.locksmith:"
					+ "locksmith-kotlin brings it)", null);
		}
		boolean flow = new MethodParameter(method, -1).getParameterType().getName().equals(FLOW);
		ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance()
			.getAdapter(flow ? Flux.class : Mono.class);
		return Objects.requireNonNull(adapter, "Reactor's adapters are registered");
	}

}
