package dev.locksmith.redis;

import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.testing.RedisServer;

/**
 * A Redis user restricted to {@link RedisAcl}, the smallest ACL that Locksmith documents and names when
 * Redis refuses it a permission.
 */
final class LocksmithAcl {

	static final String USER = "locksmith";

	static final String PASSWORD = "s3cret-acl-pass";

	private LocksmithAcl() {
	}

	/** The rules of {@code ACL SETUSER} for a user of exactly {@link RedisAcl#rules}, followed by {@code narrower}. */
	static List<String> rules(RedisLockKeys keys, String... narrower) {
		List<String> rules = new ArrayList<>(List.of("reset", "on", ">" + PASSWORD, "resetkeys", "resetchannels"));
		rules.addAll(RedisAcl.rules(keys));
		rules.addAll(List.of(narrower));
		return rules;
	}

	/**
	 * The rules of {@code ACL SETUSER} for a user of {@link RedisAcl#rules} without {@code left}: Redis 6.2
	 * cannot take a subcommand away ({@code -script|load}), only leave it out.
	 */
	static List<String> rulesWithout(RedisLockKeys keys, String left) {
		List<String> rules = rules(keys);
		if (!rules.remove(left)) {
			throw new IllegalArgumentException(left + " is not a rule of " + rules);
		}
		return rules;
	}

	/** Creates (or replaces) the user {@link #USER} on {@code redis} with exactly {@code rules}. */
	static void createUser(RedisServer redis, List<String> rules) {
		List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", USER));
		command.addAll(rules);
		String answer = redis.command(command.toArray(String[]::new));
		if (!"OK".equals(answer)) {
			throw new IllegalStateException("ACL SETUSER failed: " + answer);
		}
	}

	/** Started connections to {@code redis} as {@link #USER}; the caller destroys them. */
	static LettuceConnectionFactory connectAsUser(RedisServer redis) {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration("127.0.0.1", redis.port());
		server.setUsername(USER);
		server.setPassword(PASSWORD);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(server);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
