package dev.locksmith.autoconfigure.web;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ProblemDetail;

import dev.locksmith.autoconfigure.LocksmithProperties;

/**
 * Auto-configures, in Spring MVC and WebFlux applications, the HTTP answers to lock failures that
 * reach a controller: 409 for a busy lock, 503 when the lock store cannot be reached, both as
 * problem details with a {@code Retry-After} header. An {@code @ExceptionHandler} of the application's for them takes precedence.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnWebApplication
@ConditionalOnClass(ProblemDetail.class)
@ConditionalOnBooleanProperty(name = "locksmith.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LocksmithProperties.class)
public final class LocksmithWebAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockExceptionHandler lockExceptionHandler(LocksmithProperties properties) {
		return new LockExceptionHandler(properties.getWeb().getUnavailableRetryAfter());
	}

}
