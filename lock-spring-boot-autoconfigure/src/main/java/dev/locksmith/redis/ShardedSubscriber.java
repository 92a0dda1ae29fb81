package dev.locksmith.redis;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import reactor.core.Disposable;

/**
 * Release channels as shard channels ({@code SSUBSCRIBE}, Redis 7) on one Lettuce cluster pub/sub
 * connection, each on the master of its hash slot. A channel is subscribed again where its slot went
 * when its master drops it ({@code SUNSUBSCRIBE} after the slot moved) and when the topology changes (a
 * master failed over); Lettuce does neither. Only loaded when Lettuce is present.
 */
final class ShardedSubscriber {

	private static final Log logger = LogFactory.getLog(ShardedSubscriber.class);

	private final LettuceConnectionFactory connectionFactory;

	private final BiConsumer<String, String> messages;

	private final ScheduledExecutorService housekeeping;

	private final Duration retryInterval;

	/** The channels wanted, subscribed or not. */
	private final Set<String> channels = ConcurrentHashMap.newKeySet();

	private volatile @Nullable StatefulRedisClusterPubSubConnection<String, String> connection;

	private volatile @Nullable Disposable topologyChanges;

	/**
	 * @param messages takes each message's channel and body, on Lettuce's event loop
	 * @param housekeeping subscribes again, off the event loop
	 */
	ShardedSubscriber(LettuceConnectionFactory connectionFactory, BiConsumer<String, String> messages,
			ScheduledExecutorService housekeeping, Duration retryInterval) {
		this.connectionFactory = connectionFactory;
		this.messages = messages;
		this.housekeeping = housekeeping;
		this.retryInterval = retryInterval;
	}

	/** Connects (anew, when connected), and subscribes to the channels wanted; on the housekeeping thread. */
	void start() {
		stop();
		RedisClusterClient client = (RedisClusterClient) this.connectionFactory.getNativeClient();
		StatefulRedisClusterPubSubConnection<String, String> opened = client.connectPubSub(StringCodec.UTF8);
		opened.addListener(new RedisClusterPubSubAdapter<>() {

			@Override
			public void smessage(RedisClusterNode node, String channel, String message) {
				ShardedSubscriber.this.messages.accept(channel, message);
			}

			@Override
			public void sunsubscribed(RedisClusterNode node, String channel, long count) {
				later(() -> resubscribe(channel), 0);
			}

		});
		this.connection = opened;
		this.topologyChanges = client.getResources().eventBus().get()
			.filter(ClusterTopologyChangedEvent.class::isInstance)
			.subscribe((changed) -> later(() -> this.channels.forEach(this::resubscribe), 0));
		this.channels.forEach(this::resubscribe);
	}

	/** Closes the connection without waiting for it; the channels stay wanted for the next start. */
	void stop() {
		Disposable changes = this.topologyChanges;
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		this.topologyChanges = null;
		this.connection = null;
		if (changes != null) {
			changes.dispose();
		}
		if (current != null) {
			current.closeAsync();
		}
	}

	/** Subscribes to {@code channel} on the master of its slot. */
	void subscribe(String channel) {
		this.channels.add(channel);
		connected().sync().ssubscribe(channel);
	}

	void unsubscribe(String channel) {
		this.channels.remove(channel);
		connected().sync().sunsubscribe(channel);
	}

	/** Subscribes again to a channel still wanted, where its slot is now; retried while it fails. */
	private void resubscribe(String channel) {
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		if (current == null || !this.channels.contains(channel)) {
			return;
		}
		try {
			current.sync().ssubscribe(channel);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not subscribe again to the releases of a lock whose slot moved; retrying", ex);
			later(() -> resubscribe(channel), this.retryInterval.toMillis());
		}
	}

	private void later(Runnable task, long delayMillis) {
		try {
			this.housekeeping.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// shut down: nothing to subscribe to any more
		}
	}

	private StatefulRedisClusterPubSubConnection<String, String> connected() {
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		if (current == null) {
			throw new IllegalStateException("The shard channel subscriber is not started");
		}
		return current;
	}

}
