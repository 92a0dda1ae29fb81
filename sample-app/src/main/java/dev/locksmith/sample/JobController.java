package dev.locksmith.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

/** Runs named jobs one at a time across every instance, through the programmatic API. */
@RestController
class JobController {

	private static final LockOptions JOB_LOCK = LockOptions.ofTtl(Duration.ofSeconds(30))
		.withWaitTime(Duration.ofSeconds(5));

	private final LockService locks;

	JobController(LockService locks) {
		this.locks = locks;
	}

	@PostMapping("/jobs/{name}/run")
	Map<String, Object> run(@PathVariable String name) throws InterruptedException {
		try (LockHandle lock = this.locks.acquire("job:" + name, JOB_LOCK)) {
			return Map.of("job", name, "fencingToken", lock.fencingToken());
		}
	}

	@GetMapping("/jobs/held")
	List<LockInfo> held() {
		return this.locks.heldLocks();
	}

	@ExceptionHandler
	@ResponseStatus(HttpStatus.CONFLICT)
	Map<String, String> busy(LockBusyException ex) {
		return Map.of("error", ex.getMessage());
	}

}
