package dev.locksmith.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension that runs one {@link RedisServer} for a whole test class and empties it before
 * each test: register it as a static {@code @RegisterExtension} field.
 */
public final class RedisServerExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private RedisServer server;

	@Override
	public void beforeAll(ExtensionContext context) {
		this.server = RedisServer.start();
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.server.command("FLUSHALL");
	}

	@Override
	public void afterAll(ExtensionContext context) {
		this.server.close();
	}

	/** The running server. */
	public RedisServer server() {
		return this.server;
	}

}
