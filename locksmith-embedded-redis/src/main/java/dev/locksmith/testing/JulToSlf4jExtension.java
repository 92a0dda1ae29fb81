package dev.locksmith.testing;

import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * JUnit extension that sends {@link System.Logger} lines to SLF4J for a test class, as Spring Boot does in an application.
 * An output capture then sees them in the same form as the rest; register it with {@code @ExtendWith}.
 */
public final class JulToSlf4jExtension implements BeforeAllCallback, AfterAllCallback {

	private Handler[] rootHandlers = new Handler[0];

	@Override
	public void beforeAll(ExtensionContext context) {
		Logger root = LogManager.getLogManager().getLogger("");
		this.rootHandlers = root.getHandlers();
		SLF4JBridgeHandler.removeHandlersForRootLogger();
		SLF4JBridgeHandler.install();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		SLF4JBridgeHandler.uninstall();
		Logger root = LogManager.getLogManager().getLogger("");
		for (Handler handler : this.rootHandlers) {
			root.addHandler(handler);
		}
	}

}
