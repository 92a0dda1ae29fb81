package dev.locksmith.benchmarks.scenario;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

class HoldersTests {

	private static RedisServer server;

	private static RedisClient client;

	private static StatefulRedisConnection<String, String> connection;

	private static RedisCommands<String, String> redis;

	@BeforeAll
	static void startRedis() {
		server = RedisServer.start();
		client = RedisClient.create("redis://127.0.0.1:" + server.port());
		connection = client.connect();
		redis = connection.sync();
	}

	@AfterAll
	static void stopRedis() {
		connection.close();
		client.shutdown();
		server.stop();
	}

	@BeforeEach
	void flush() {
		redis.flushall();
	}

	@Test
	void readersShareWithoutOverlapAndTheMostAtOnceIsKept() {
		Holders.READERS.enter(redis);
		Holders.READERS.enter(redis);
		Holders.READERS.enter(redis);
		Holders.READERS.leave(redis);
		Holders.READERS.leave(redis);
		Holders.READERS.enter(redis);
		assertThat(redis.get(Holders.READERS.mostKey)).isEqualTo("3");
		assertThat(redis.get(Holders.OVERLAPS)).isNull();
	}

	@Test
	void aWriterWithAReaderOrAnotherWriterIsAnOverlap() {
		Holders.READERS.enter(redis);
		Holders.WRITERS.enter(redis);
		assertThat(redis.get(Holders.OVERLAPS)).isEqualTo("1");
		Holders.READERS.leave(redis);
		Holders.WRITERS.enter(redis);
		assertThat(redis.get(Holders.OVERLAPS)).isEqualTo("2");
		Holders.WRITERS.leave(redis);
		Holders.WRITERS.leave(redis);
		Holders.WRITERS.enter(redis);
		assertThat(redis.get(Holders.OVERLAPS)).isEqualTo("2");
	}

	@Test
	void aReaderFindingAWriterIsAnOverlap() {
		Holders.WRITERS.enter(redis);
		Holders.READERS.enter(redis);
		assertThat(redis.get(Holders.OVERLAPS)).isEqualTo("1");
	}

	@Test
	void permitHoldersOverlapOnlyBeyondThePermits() {
		for (int i = 0; i < ReadMostlyAndPermits.PERMITS; i++) {
			Holders.PERMIT_HOLDERS.enter(redis);
		}
		assertThat(redis.get(Holders.OVERLAPS)).isNull();
		Holders.PERMIT_HOLDERS.enter(redis);
		assertThat(redis.get(Holders.OVERLAPS)).isEqualTo("1");
		assertThat(redis.get(Holders.PERMIT_HOLDERS.mostKey)).isEqualTo(String.valueOf(ReadMostlyAndPermits.PERMITS + 1));
	}

}
