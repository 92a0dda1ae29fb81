package dev.locksmith.readme;

// tag::fencing-redis[]
import org.springframework.stereotype.Service;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockContext;

@Service
class Stock {

	private final FencedValues values;

	Stock(FencedValues values) {   // RedisFencedValues on the lock's Redis; in memory with locksmith.store=in-memory
		this.values = values;
	}

	@DistributedLock(name = "stock", key = "#sku")
	public boolean set(String sku, int count) {
		long token = LockContext.current().orElseThrow().fencingToken();
		return this.values.write("stock:" + sku, Integer.toString(count), token);   // false: a newer holder wrote
	}

}
// end::fencing-redis[]
