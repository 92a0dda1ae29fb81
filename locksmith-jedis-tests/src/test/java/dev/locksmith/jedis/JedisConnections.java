package dev.locksmith.jedis;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/** Jedis connection factories for the tests, which build stores by hand. */
final class JedisConnections {

	private JedisConnections() {
	}

	/** A started Jedis connection factory for the Redis on loopback {@code port}; the caller destroys it. */
	static JedisConnectionFactory started(int port) {
		JedisConnectionFactory factory = new JedisConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
