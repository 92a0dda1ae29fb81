package dev.locksmith.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension that runs one {@link RedisCluster} for a whole test class and empties every node
 * before each test: register it as a static {@code @RegisterExtension} field.
 */
public final class RedisClusterExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private RedisCluster cluster;

	@Override
	public void beforeAll(ExtensionContext context) {
		this.cluster = RedisCluster.start();
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.cluster.nodes().forEach((node) -> node.command("FLUSHALL"));
	}

	@Override
	public void afterAll(ExtensionContext context) {
		this.cluster.close();
	}

	/** The running cluster. */
	public RedisCluster cluster() {
		return this.cluster;
	}

}
