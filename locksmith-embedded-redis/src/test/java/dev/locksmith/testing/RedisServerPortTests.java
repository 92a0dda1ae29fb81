package dev.locksmith.testing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Test JVMs side by side: a server whose free port another process took first moves to another one. */
class RedisServerPortTests {

	@Test
	void aServerWhosePortIsTakenMovesToAnotherPortAndNeverTakesTheOtherServerForItsOwn() {
		try (RedisServer other = RedisServer.start()) {
			Deque<Integer> proposed = new ArrayDeque<>(List.of(other.port(), RedisServer.freePort()));
			try (RedisServer server = RedisServer.onFreePort(proposed::removeFirst, RedisServer::unstartedOn)) {
				assertThat(server.port()).isNotEqualTo(other.port());
				assertThat(server.command("SET", "owner", "second")).isEqualTo("OK");
				assertThat(other.command("GET", "owner")).as("the other process's server was left alone").isEmpty();
			}
		}
	}

}
