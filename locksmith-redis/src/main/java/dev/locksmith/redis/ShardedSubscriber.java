package dev.locksmith.redis;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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

	/** How long a node may take to answer {@code SSUBSCRIBE}, or {@code SUNSUBSCRIBE}, before it is given up. */
	private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(2);

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
	 * @param housekeeping where a failed subscription is tried again after {@code retryInterval}
	 */
	ShardedSubscriber(LettuceConnectionFactory connectionFactory, BiConsumer<String, String> messages,
			ScheduledExecutorService housekeeping, Duration retryInterval) {
		this.connectionFactory = connectionFactory;
		this.messages = messages;
		this.housekeeping = housekeeping;
		this.retryInterval = retryInterval;
	}

	/** Connects (anew, when connected), and subscribes to the channels wanted; on the housekeeping thread. */
	synchronized void start() {
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
				ssubscribe(channel);
			}

		});
		this.connection = opened;
		this.topologyChanges = client.getResources().eventBus().get()
			.filter(ClusterTopologyChangedEvent.class::isInstance)
			.subscribe((changed) -> this.channels.forEach(this::ssubscribe));
		this.channels.forEach(this::ssubscribe);
	}

	/** Closes the connection without waiting for it; the channels stay wanted for the next start. */
	synchronized void stop() {
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

	/**
	 * Subscribes to {@code channel} on the master of its slot, and waits for it at most {@link #ANSWER_TIMEOUT};
	 * until it is subscribed, or no longer wanted, tries again in the background.
	 */
	void subscribe(String channel) {
		this.channels.add(channel);
		ssubscribe(channel).join();
	}

	/** Unsubscribes from {@code channel}, waiting for it at most {@link #ANSWER_TIMEOUT}. */
	void unsubscribe(String channel) {
		this.channels.remove(channel);
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		if (current != null) {
			current.async().sunsubscribe(channel).toCompletableFuture().orTimeout(ANSWER_TIMEOUT.toMillis(),
					TimeUnit.MILLISECONDS).join();
		}
	}

	/**
	 * Sends {@code SSUBSCRIBE} for a channel still wanted, which Lettuce routes to the master of its slot as it
	 * knows it now (following a redirect); when that fails or goes unanswered (a master that died), tries
	 * again every retry interval. Never blocks: it also runs on Lettuce's threads.
	 */
	private CompletableFuture<Void> ssubscribe(String channel) {
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		if (current == null || !this.channels.contains(channel)) {
			return CompletableFuture.completedFuture(null);
		}
		return current.async().ssubscribe(channel).toCompletableFuture()
			.orTimeout(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
			.whenComplete((subscribed, failure) -> {
				if (failure != null) {
					logger.debug("Could not subscribe to the releases of a lock; retrying", failure);
					retry(channel);
				}
			});
	}

	private void retry(String channel) {
		try {
			this.housekeeping.schedule(() -> ssubscribe(channel), this.retryInterval.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// shut down: nothing to subscribe to any more
		}
	}

}
