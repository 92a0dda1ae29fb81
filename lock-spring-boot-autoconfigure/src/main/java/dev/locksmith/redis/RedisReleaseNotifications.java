package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import dev.locksmith.core.ReleaseNotifications;

/**
 * Release notifications over Redis pub/sub: one subscriber connection for the whole process,
 * whatever the number of waiting threads and keys. When Redis is down at start, subscribing is
 * retried in the background; until then waiters fall back to their bounded re-check.
 *
 * @since 0.1.0
 */
public final class RedisReleaseNotifications implements ReleaseNotifications, DisposableBean {

	private static final Log logger = LogFactory.getLog(RedisReleaseNotifications.class);

	private static final Duration RECOVERY_INTERVAL = Duration.ofSeconds(1);

	private final RedisMessageListenerContainer container = new RedisMessageListenerContainer();

	private final ScheduledExecutorService retries = Executors
		.newSingleThreadScheduledExecutor(daemonThreads("locksmith-subscriber-"));

	private final ChannelTopic channel;

	public RedisReleaseNotifications(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this.container.setConnectionFactory(connectionFactory);
		this.container.setRecoveryInterval(RECOVERY_INTERVAL.toMillis());
		this.container.afterPropertiesSet();
		this.channel = ChannelTopic.of(keys.releaseChannel());
	}

	@Override
	public void subscribe(Consumer<String> onReleased) {
		this.container.addMessageListener(
				(message, pattern) -> onReleased.accept(new String(message.getBody(), StandardCharsets.UTF_8)),
				this.channel);
		startListening(true);
	}

	@Override
	public void destroy() throws Exception {
		this.retries.shutdownNow();
		this.container.destroy();
	}

	private void startListening(boolean firstAttempt) {
		try {
			this.container.start();
		}
		catch (RuntimeException ex) {
			if (firstAttempt) {
				logger.warn("Could not subscribe to lock release notifications on '" + this.channel.getTopic()
						+ "'; retrying every " + RECOVERY_INTERVAL.toMillis()
						+ "ms, and waiters re-check until then: " + ex.getMessage());
			}
			this.container.stop();
			if (!this.retries.isShutdown()) {
				this.retries.schedule(() -> startListening(false), RECOVERY_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
	}

	private static CustomizableThreadFactory daemonThreads(String prefix) {
		CustomizableThreadFactory threads = new CustomizableThreadFactory(prefix);
		threads.setDaemon(true);
		return threads;
	}

}
