package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.WorkerJvm;

/**
 * JUnit extension for tests against worker JVMs on a test Redis: before each test, a lock engine of
 * this process on that Redis; after it, every worker it started killed and the engine closed.
 */
final class WorkerFleet implements BeforeEachCallback, AfterEachCallback {

	private final RedisServerExtension redisServer;

	private final List<ReportingWorker> workers = new ArrayList<>();

	private LettuceConnectionFactory connections;

	private DefaultLockService locks;

	WorkerFleet(RedisServerExtension redisServer) {
		this.redisServer = redisServer;
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.connections = redis().connectionFactory();
		this.locks = DefaultLockService.builder(new RedisLockBackend(this.connections, new RedisLockKeys("lock:")))
			.storeTimeout(Duration.ofSeconds(2))
			.build();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		this.workers.forEach(ReportingWorker::kill);
		this.workers.clear();
		this.locks.close();
		this.connections.destroy();
	}

	RedisServer redis() {
		return this.redisServer.server();
	}

	/** This process's connections to the test Redis. */
	LettuceConnectionFactory connections() {
		return this.connections;
	}

	/** This process's lock engine on the test Redis. */
	DefaultLockService locks() {
		return this.locks;
	}

	/** Starts {@code main} in a JVM of its own with the test class path, the Redis port first among its arguments. */
	ReportingWorker start(Class<?> main, List<String> arguments) throws java.io.IOException {
		List<String> command = new ArrayList<>(WorkerJvm.command(main, Integer.toString(redis().port())));
		command.addAll(arguments);
		ReportingWorker worker = ReportingWorker.start(command);
		this.workers.add(worker);
		return worker;
	}

}
