package dev.locksmith.readme;

// tag::scheduled-job[]
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;

@Component
class InvoiceReminders {

	@Scheduled(cron = "0 */5 * * * *")                       // every 5 minutes, on every instance
	@DistributedLock(name = "invoice-reminders", onBusy = OnBusy.SKIP, holdAtLeast = "1m")
	public void send() {
		// remind the customers whose invoices are due
	}

}
// end::scheduled-job[]
