package dev.locksmith.readme;

// tag::fallback[]
import java.time.Duration;

import org.springframework.stereotype.Service;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockBusyException;

@Service
class Seats {

	@DistributedLock(name = "seat", key = "#id", waitTime = "200ms", fallbackMethod = "reserveLater")
	public String reserve(String id) {
		return "reserved " + id;
	}

	// same parameters, optionally followed by the LockBusyException; same return type
	String reserveLater(String id, LockBusyException busy) {
		Duration retryAfter = busy.getRetryAfter();   // when a retry has a chance
		return "queued " + id + ", try again in " + retryAfter.toSeconds() + "s";
	}

}
// end::fallback[]
