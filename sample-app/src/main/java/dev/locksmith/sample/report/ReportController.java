package dev.locksmith.sample.report;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Runs the nightly report now, unless an instance is already running it. */
@RestController
class ReportController {

	private final NightlyReport report;

	ReportController(NightlyReport report) {
		this.report = report;
	}

	@PostMapping("/reports/nightly")
	ResponseEntity<?> runNow() {
		return this.report.run()
			.<ResponseEntity<?>>map(ResponseEntity::ok)
			.orElseGet(() -> ResponseEntity.status(HttpStatus.CONFLICT)
				.body(Map.of("skipped", "another instance is running the nightly report")));
	}

}
