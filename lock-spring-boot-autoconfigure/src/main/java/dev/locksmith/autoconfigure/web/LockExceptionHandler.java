package dev.locksmith.autoconfigure.web;

import java.time.Duration;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockUnavailableException;

/**
 * Answers a busy lock with 409 Conflict and an unreachable lock store with 503 Service Unavailable,
 * as problem details, in Spring MVC and WebFlux alike, each with a {@code Retry-After} header: the
 * busy lease's remaining time as the store reported it, or the configured wait for the store. A lock
 * lost while its work ran answers 409 Conflict too, without {@code Retry-After}: another request may
 * have held the lock meanwhile and the work's effects may stand in part, so the client looks before it
 * tries again (a 503 would invite the automatic retries that clients make of it). Ordered last, so any
 * controller advice or controller of the application's that handles these exceptions wins. The
 * detail names no key: the client learns what to do, not whose lock it met.
 */
@ControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
final class LockExceptionHandler {

	private final Duration unavailableRetryAfter;

	LockExceptionHandler(Duration unavailableRetryAfter) {
		this.unavailableRetryAfter = unavailableRetryAfter;
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> lockBusy(LockBusyException ex) {
		return withRetryAfter(ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
				"Another request holds a lock that this request needs; try again later."), ex.getRetryAfter());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> lockUnavailable(LockUnavailableException ex) {
		return withRetryAfter(ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"Locking is unavailable at the moment; try again later."), this.unavailableRetryAfter);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> lockLost(LockLostException ex) {
		return withRetryAfter(ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
				"The lock this request held ended before its work did, so another request may have run meanwhile; "
						+ "check the outcome before trying again."),
				Duration.ZERO);
	}

	/**
	 * The problem with {@code retryAfter} in whole seconds, rounded up, as the {@code Retry-After} header
	 * and the {@code retryAfter} property; without either when {@code retryAfter} is zero (unknown).
	 */
	private static ResponseEntity<ProblemDetail> withRetryAfter(ProblemDetail problem, Duration retryAfter) {
		ResponseEntity.BodyBuilder response = ResponseEntity.status(problem.getStatus());
		if (!retryAfter.isZero() && !retryAfter.isNegative()) {
			long seconds = retryAfter.plusNanos(999_999_999).getSeconds();
			problem.setProperty("retryAfter", seconds);
			response.header(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
		}
		return response.body(problem);
	}

}
