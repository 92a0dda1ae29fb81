package dev.locksmith.readme;

// tag::quick-start[]
import org.springframework.stereotype.Service;

import dev.locksmith.annotation.DistributedLock;

@Service
class Orders {

	@DistributedLock(name = "order", key = "#orderId", ttl = "30s")
	public void ship(String orderId) {
		// one caller in the whole fleet ships a given order at a time
	}

}
// end::quick-start[]
