package dev.locksmith.benchmarks.lock;

import java.util.UUID;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The lock every Redis tutorial shows: {@code SET key token NX PX ttl} to take it, a
 * compare-and-delete script to give it back, and a retry every millisecond while it is busy.
 */
final class TextbookLock implements HoldableLock {

	private static final String COMPARE_AND_DELETE = """
			if redis.call('get', KEYS[1]) == ARGV[1] then
				return redis.call('del', KEYS[1])
			end
			return 0""";

	private static final SetArgs NX_30_SECONDS = SetArgs.Builder.nx().px(30_000);

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final String compareAndDeleteSha;

	TextbookLock(int port) {
		this.client = RedisClient.create("redis://127.0.0.1:" + port);
		this.connection = this.client.connect();
		this.compareAndDeleteSha = this.connection.sync().scriptLoad(COMPARE_AND_DELETE);
	}

	@Override
	public Release hold(String key) throws InterruptedException {
		RedisCommands<String, String> redis = this.connection.sync();
		String token = UUID.randomUUID().toString();
		while (redis.set(key, token, NX_30_SECONDS) == null) {
			Thread.sleep(1);
		}
		return () -> redis.evalsha(this.compareAndDeleteSha, ScriptOutputType.INTEGER, new String[] { key }, token);
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}

}
