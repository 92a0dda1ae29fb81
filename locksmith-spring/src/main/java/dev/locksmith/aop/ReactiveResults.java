package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * Recognises, through Spring's {@link ReactiveAdapterRegistry}, the results whose lock must last for
 * their subscription: {@code Mono}, {@code Flux}, any {@code Publisher}, and every type the registry
 * adapts (RxJava, Mutiny, {@code Flow.Publisher} and others on the class path). A
 * {@link CompletionStage} is not one of them: the aspect holds its lock until it completes, without
 * Reactor.
 */
final class ReactiveResults {

	/** Whether Reactor, which locks a subscription, is on the class path. */
	static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			ReactiveResults.class.getClassLoader());

	private ReactiveResults() {
	}

	/**
	 * The adapter of {@code method}'s reactive result, or {@code null} when the result is a plain value or
	 * a {@link CompletionStage}.
	 * @throws LockDeclarationException when the result is reactive and its lock cannot last for its
	 * subscription: without Reactor, or of a type that the adapted result cannot be returned as
	 */
	static @Nullable ReactiveAdapter adapterFor(String where, Method method) {
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

}
