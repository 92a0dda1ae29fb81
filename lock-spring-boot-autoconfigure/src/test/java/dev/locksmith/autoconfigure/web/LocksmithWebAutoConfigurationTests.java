package dev.locksmith.autoconfigure.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockUnavailableException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A busy lock and a lock lost while its work ran answer 409 and an unreachable store 503, as problem
 * details, in Spring MVC and WebFlux; the application's own exception handlers take precedence.
 */
class LocksmithWebAutoConfigurationTests {

	private static final String LOST_DETAIL = "The lock this request held ended before its work did, so another "
			+ "request may have run meanwhile; check the outcome before trying again.";

	private static final AutoConfigurations WEB = AutoConfigurations.of(LocksmithWebAutoConfiguration.class);

	@Test
	void springMvcAnswersABusyLockWith409AndAnUnreachableStoreWith503() {
		new WebApplicationContextRunner().withConfiguration(WEB).withUserConfiguration(Mvc.class).run((context) -> {
			MockMvcTester mvc = MockMvcTester.from(context);
			assertThat(mvc.post().uri("/busy")).hasStatus(HttpStatus.CONFLICT)
				.hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
				.bodyJson()
				.extractingPath("$.detail")
				.asString()
				.isEqualTo("Another request holds a lock that this request needs; try again later.");
			assertThat(mvc.post().uri("/unavailable")).hasStatus(HttpStatus.SERVICE_UNAVAILABLE)
				.hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
				.hasHeader(HttpHeaders.RETRY_AFTER, "1")
				.bodyJson()
				.extractingPath("$.status")
				.isEqualTo(503);
		});
	}

	@Test
	void webFluxAnswersABusyLockWith409AndAnUnreachableStoreWith503() {
		new ReactiveWebApplicationContextRunner().withConfiguration(WEB)
			.withUserConfiguration(Flux.class)
			.run((context) -> {
				WebTestClient http = WebTestClient.bindToApplicationContext(context).build();
				http.post().uri("/busy").exchange()
					.expectStatus().isEqualTo(HttpStatus.CONFLICT)
					.expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
					.expectBody().jsonPath("$.status").isEqualTo(409);
				http.post().uri("/unavailable").exchange()
					.expectStatus().isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
					.expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
					.expectBody().jsonPath("$.detail").isEqualTo("Locking is unavailable at the moment; try again later.");
			});
	}

	@Test
	void springMvcAnswersALockLostWhileItsWorkRanWith409WithoutRetryAfter() {
		new WebApplicationContextRunner().withConfiguration(WEB).withUserConfiguration(Mvc.class).run((context) -> {
			MockMvcTester mvc = MockMvcTester.from(context);
			assertThat(mvc.post().uri("/lost")).hasStatus(HttpStatus.CONFLICT)
				.hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
				.doesNotContainHeader(HttpHeaders.RETRY_AFTER)
				.bodyJson()
				.extractingPath("$.detail")
				.asString()
				.isEqualTo(LOST_DETAIL);
		});
	}

	@Test
	void webFluxAnswersALockLostWhileItsWorkRanWith409WithoutRetryAfter() {
		new ReactiveWebApplicationContextRunner().withConfiguration(WEB)
			.withUserConfiguration(Flux.class)
			.run((context) -> {
				WebTestClient http = WebTestClient.bindToApplicationContext(context).build();
				http.post().uri("/lost").exchange()
					.expectStatus().isEqualTo(HttpStatus.CONFLICT)
					.expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
					.expectHeader().doesNotExist(HttpHeaders.RETRY_AFTER)
					.expectBody().jsonPath("$.detail").isEqualTo(LOST_DETAIL)
					.jsonPath("$.retryAfter").doesNotExist();
			});
	}

	@Test
	void aBusyLockTellsWhenToRetryInWholeSecondsRoundedUp() {
		new WebApplicationContextRunner().withConfiguration(WEB).withUserConfiguration(Mvc.class).run((context) -> {
			MockMvcTester mvc = MockMvcTester.from(context);
			assertThat(mvc.post().uri("/busy-for-a-while")).hasStatus(HttpStatus.CONFLICT)
				.hasHeader(HttpHeaders.RETRY_AFTER, "3")
				.bodyJson()
				.extractingPath("$.retryAfter")
				.isEqualTo(3);
			assertThat(mvc.post().uri("/busy")).hasStatus(HttpStatus.CONFLICT)
				.doesNotContainHeader(HttpHeaders.RETRY_AFTER);
		});
	}

	@Test
	void theRetryAfterOfAnUnreachableStoreIsConfigurable() {
		new ReactiveWebApplicationContextRunner().withConfiguration(WEB)
			.withUserConfiguration(Flux.class)
			.withPropertyValues("locksmith.web.unavailable-retry-after=4500ms")
			.run((context) -> WebTestClient.bindToApplicationContext(context).build()
				.post().uri("/unavailable").exchange()
				.expectStatus().isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
				.expectHeader().valueEquals(HttpHeaders.RETRY_AFTER, "5")
				.expectBody().jsonPath("$.retryAfter").isEqualTo(5));
	}

	@Test
	void theApplicationsOwnHandlerTakesPrecedence() {
		new WebApplicationContextRunner().withConfiguration(WEB)
			.withUserConfiguration(Mvc.class, OwnHandler.class)
			.run((context) -> {
				MockMvcTester mvc = MockMvcTester.from(context);
				assertThat(mvc.post().uri("/busy")).hasStatus(HttpStatus.TOO_MANY_REQUESTS)
					.bodyText()
					.isEqualTo("mine");
				assertThat(mvc.post().uri("/unavailable")).hasStatus(HttpStatus.SERVICE_UNAVAILABLE);
			});
	}

	@Test
	void outsideAWebApplicationThereIsNoHandler() {
		new ApplicationContextRunner().withConfiguration(WEB)
			.run((context) -> assertThat(context).doesNotHaveBean(LockExceptionHandler.class));
	}

	@Test
	void backsOffWhenTheHandlerIsAlreadyDefined() {
		new WebApplicationContextRunner().withConfiguration(WEB)
			.withBean("ownLockExceptionHandler", LockExceptionHandler.class,
					() -> new LockExceptionHandler(Duration.ofSeconds(1)))
			.run((context) -> assertThat(context).hasSingleBean(LockExceptionHandler.class)
				.hasBean("ownLockExceptionHandler"));
	}

	@Test
	void switchingLocksmithOffRemovesTheHandler() {
		new WebApplicationContextRunner().withConfiguration(WEB)
			.withPropertyValues("locksmith.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockExceptionHandler.class));
	}

	@RestController
	static class FailingController {

		@PostMapping("/busy")
		void busy() {
			throw new LockBusyException("invoice:4711", Duration.ZERO);
		}

		@PostMapping("/busy-for-a-while")
		void busyForAWhile() {
			throw new LockBusyException("invoice", "invoice:4711", Duration.ZERO, Duration.ofMillis(2001));
		}

		@PostMapping("/lost")
		void lost() {
			throw new LockLostException("seat:12A", 42);
		}

		@PostMapping("/unavailable")
		void unavailable() {
			throw new LockUnavailableException("Lock store did not answer acquire of 'invoice:******' within 2000ms",
					null);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebMvc
	@Import(FailingController.class)
	static class Mvc {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebFlux
	@Import(FailingController.class)
	static class Flux {

	}

	@ControllerAdvice
	static class OwnHandler {

		@ExceptionHandler
		ResponseEntity<String> busy(LockBusyException ex) {
			return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).body("mine");
		}

	}

}
