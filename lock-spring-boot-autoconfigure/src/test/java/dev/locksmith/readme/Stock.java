package dev.locksmith.readme;

// tag::fencing-redis[]
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.stereotype.Service;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockContext;
import dev.locksmith.redis.RedisFencedValues;

@Service
class Stock {

	private final RedisFencedValues values;

	Stock(RedisConnectionFactory redis) {
		this.values = new RedisFencedValues(redis);   // not a bean: create it where you need it
	}

	@DistributedLock(name = "stock", key = "#sku")
	public boolean set(String sku, int count) {
		long token = LockContext.current().orElseThrow().fencingToken();
		return this.values.write("stock:" + sku, Integer.toString(count), token);   // false: a newer holder wrote
	}

}
// end::fencing-redis[]
