package dev.locksmith.autoconfigure.web;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockUnavailableException;

/**
 * Answers a busy lock with 409 Conflict and an unreachable lock store with 503 Service Unavailable,
 * as problem details, in Spring MVC and WebFlux alike. Ordered last, so any controller advice or
 * controller of the application's that handles these exceptions wins. The detail names no key:
 * the client learns what to do, not whose lock it met.
 */
@ControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
final class LockExceptionHandler {

	@ExceptionHandler
	ProblemDetail lockBusy(LockBusyException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
				"Another request holds a lock that this request needs; try again later.");
	}

	@ExceptionHandler
	ProblemDetail lockUnavailable(LockUnavailableException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"Locking is unavailable at the moment; try again later.");
	}

}
