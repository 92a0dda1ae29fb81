package dev.locksmith.sample;

import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import dev.locksmith.testing.RedisServer;

/**
 * When no {@code spring.data.redis.*} connection is configured, uses the Redis on the embedded port
 * (so a second instance shares the first one's) or starts a real {@code redis-server} there, and
 * stops what it started when the application closes, after the web server drained (see
 * {@link EmbeddedRedisLifecycle}).
 */
class EmbeddedRedisStarter implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {

	static final String PORT_PROPERTY = "sample.embedded-redis.port";

	private static final Log logger = LogFactory.getLog(EmbeddedRedisStarter.class);

	private static final String STORE_PROPERTY = "locksmith.store";

	private static final List<String> CONNECTION_PROPERTIES = List.of("spring.data.redis.host",
			"spring.data.redis.port", "spring.data.redis.url", "spring.data.redis.cluster.nodes",
			"spring.data.redis.sentinel.master");

	@Override
	public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
		ConfigurableEnvironment environment = event.getEnvironment();
		// AOT processing runs the application only to record its bean definitions: nothing connects
		if (Boolean.getBoolean(AbstractAotProcessor.AOT_PROCESSING)
				|| !"redis".equalsIgnoreCase(environment.getProperty(STORE_PROPERTY, "redis"))
				|| CONNECTION_PROPERTIES.stream().anyMatch(environment::containsProperty)) {
			return;
		}
		int port = environment.getProperty(PORT_PROPERTY, Integer.class, 6379);
		if (RedisServer.answersOn(port)) {
			logger.info("Using the Redis already running on 127.0.0.1:" + port);
		}
		else {
			RedisServer server = RedisServer.startInOwnSessionOn(port);
			logger.info("No Redis configured: started an embedded redis-server on 127.0.0.1:" + port);
			event.getSpringApplication()
				.addInitializers((context) -> context.getBeanFactory()
					.registerSingleton("embeddedRedisLifecycle", new EmbeddedRedisLifecycle(server)));
		}
		environment.getPropertySources()
			.addFirst(new MapPropertySource("embeddedRedis",
					Map.of("spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", port)));
	}

}
