package dev.locksmith.redis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Warns when Redis may evict lock keys. Every lock key carries a TTL, so under any
 * {@code maxmemory-policy} but {@code noeviction} (the {@code volatile-*} ones first of all) a full
 * Redis can drop a lock before its lease ends, and a second owner then takes it. Best effort:
 * {@code CONFIG GET} may be disabled, and on a cluster each master that answers is checked.
 */
final class EvictionPolicyCheck {

	static final String SAFE_POLICY = "noeviction";

	private static final String POLICY = "maxmemory-policy";

	private static final Log logger = LogFactory.getLog(EvictionPolicyCheck.class);

	private final RedisConnectionFactory connectionFactory;

	EvictionPolicyCheck(RedisConnectionFactory connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	/** Reads the policy of every server that answers, warns for each one that may evict, and returns them by server. */
	Map<String, String> check() {
		Map<String, String> policies = new LinkedHashMap<>();
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			if (connection instanceof RedisClusterConnection cluster) {
				for (RedisClusterNode node : cluster.clusterGetNodes()) {
					if (node.isMaster()) {
						read("Redis node " + node.asString(), () -> cluster.serverCommands().getConfig(node, POLICY),
								policies);
					}
				}
			}
			else {
				read("Redis", () -> connection.serverCommands().getConfig(POLICY), policies);
			}
		}
		catch (RuntimeException ex) {
			logger.info("Could not check Redis's " + POLICY + " for lock keys; make sure it is " + SAFE_POLICY + ": "
					+ ex.getMessage());
		}
		policies.forEach((server, policy) -> {
			if (!SAFE_POLICY.equals(policy)) {
				logger.warn(server + " runs with " + POLICY + " " + policy + ": when its memory is full it can evict "
						+ "lock keys, which all carry a TTL, before their lease ends, and a second owner then takes "
						+ "the lock. Set " + POLICY + " to " + SAFE_POLICY + " on the Redis that keeps locks.");
			}
		});
		return policies;
	}

	private static void read(String server, Supplier<Properties> config, Map<String, String> policies) {
		try {
			Properties properties = config.get();
			String policy = (properties != null) ? properties.getProperty(POLICY) : null;
			if (policy != null) {
				policies.put(server, policy);
			}
		}
		catch (RuntimeException ex) {
			logger.info("Could not read " + POLICY + " of " + server + " (CONFIG may be disabled); make sure it is "
					+ SAFE_POLICY + " for lock keys: " + ex.getMessage());
		}
	}

}
