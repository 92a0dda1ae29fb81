package dev.locksmith.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The ACL Locksmith states grants every command its scripts call, and the stores guide prints that ACL. */
class RedisAclRulesTests {

	/**
	 * A command a script calls with {@code redis.call}; one it calls with {@code redis.pcall} ({@code SPUBLISH},
	 * which Redis 6.2's ACL does not know) has a fallback when refused, and is granted apart (the stores guide).
	 */
	private static final Pattern CALL = Pattern.compile("(?<!p)call\\(['\"]([A-Za-z]+)['\"]");

	private static final Path SCRIPTS = Path.of("..", "locksmith-redis", "src", "main", "resources", "dev", "locksmith", "redis");

	@Test
	void theAclGrantsEveryCommandTheScriptsCall() throws IOException {
		List<String> rules = RedisAcl.rules(new RedisLockKeys("lock:"));

		assertThat(scriptCommands()).isNotEmpty().allSatisfy((command) -> assertThat(rules).contains("+" + command));
	}

	@Test
	void theStoresGuidePrintsTheAclOfTheDefaultPrefix() throws IOException {
		String guide = Files.readString(Path.of("..", "docs", "guide", "stores.md"));

		assertThat(guide).contains("resetchannels " + String.join(" ", RedisAcl.rules(new RedisLockKeys("lock:"))) + "\n");
	}

	private static Set<String> scriptCommands() throws IOException {
		Set<String> commands = new TreeSet<>();
		try (Stream<Path> scripts = Files.list(SCRIPTS)) {
			for (Path script : scripts.filter((path) -> path.toString().endsWith(".lua")).toList()) {
				Matcher call = CALL.matcher(Files.readString(script));
				while (call.find()) {
					commands.add(call.group(1).toLowerCase(Locale.ROOT));
				}
			}
		}
		return commands;
	}

}
