package dev.locksmith.aop;

import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

/** The analysis Spring Boot would print for a failed startup, from the analyzers registered in {@code spring.factories}. */
final class StartupFailureAnalysis {

	private StartupFailureAnalysis() {
	}

	static @Nullable FailureAnalysis of(Throwable failure) {
		return SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, null, FailureHandler.handleMessage((message, notInstantiated) -> {
				// the analyzers that need an application context are left out
			}))
			.stream()
			.map((analyzer) -> analyzer.analyze(failure))
			.filter(Objects::nonNull)
			.findFirst()
			.orElse(null);
	}

}
