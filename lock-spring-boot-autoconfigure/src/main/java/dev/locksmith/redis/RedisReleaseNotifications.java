package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import dev.locksmith.core.ReleaseNotifications;

/**
 * Release notifications over Redis pub/sub: one subscriber connection for the whole process,
 * whatever the number of waiting threads and keys. The subscription recovers by itself after Redis
 * comes back.
 *
 * @since 0.1.0
 */
public final class RedisReleaseNotifications implements ReleaseNotifications, DisposableBean {

	private final RedisMessageListenerContainer container = new RedisMessageListenerContainer();

	private final ChannelTopic channel;

	public RedisReleaseNotifications(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this.container.setConnectionFactory(connectionFactory);
		this.container.setRecoveryInterval(1000);
		this.container.afterPropertiesSet();
		this.channel = ChannelTopic.of(keys.releaseChannel());
	}

	@Override
	public void subscribe(Consumer<String> onReleased) {
		this.container.addMessageListener((message, pattern) -> onReleased.accept(new String(message.getBody(),
				StandardCharsets.UTF_8)), this.channel);
		if (!this.container.isRunning()) {
			this.container.start();
		}
	}

	@Override
	public void destroy() throws Exception {
		this.container.destroy();
	}

}
