package dev.locksmith.redis;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import reactor.core.Disposable;

/**
 * Release channels as shard channels ({@code SSUBSCRIBE}, Redis 7) on one Lettuce cluster pub/sub
 * connection, each on the master of its hash slot. Each channel is sent to the node that Lettuce's view
 * names as its slot's master, and the subscriber remembers which node answered: a channel is subscribed
 * again, at one attempt at a time, when that node drops it ({@code SUNSUBSCRIBE} after its slot moved or
 * it was demoted), when its connection to that node is lost, and when the view names another master;
 * after such a move the view is refreshed and checked, and the channel is unsubscribed from the node it
 * left. Failed attempts are retried with a backoff. Only loaded when Lettuce is present.
 */
final class ShardedSubscriber {

	/** How long a node may take to answer {@code SSUBSCRIBE}, or {@code SUNSUBSCRIBE}, before it is given up. */
	private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(2);

	/** The longest wait between two attempts to subscribe a channel. */
	private static final Duration LONGEST_BACKOFF = Duration.ofSeconds(30);

	private static final Log logger = LogFactory.getLog(ShardedSubscriber.class);

	private final LettuceConnectionFactory connectionFactory;

	private final BiConsumer<String, String> messages;

	private final ScheduledExecutorService housekeeping;

	private final Duration retryInterval;

	/** The channels wanted, subscribed or not. */
	private final Set<String> channels = ConcurrentHashMap.newKeySet();

	/** Each subscribed channel's node: the id of the node that answered its {@code SSUBSCRIBE}. */
	private final Map<String, String> placed = new ConcurrentHashMap<>();

	/** The channel of each attempt under way or waiting for its backoff: one at a time per channel. */
	private final Map<String, Attempts> attempts = new ConcurrentHashMap<>();

	/** The nodes that last let an attempt time out or fail: a subscription there is not waited for. */
	private final Set<String> silentNodes = ConcurrentHashMap.newKeySet();

	private volatile @Nullable StatefulRedisClusterPubSubConnection<String, String> connection;

	private volatile @Nullable Disposable topologyChanges;

	private volatile @Nullable ScheduledFuture<?> audit;

	/** The last refresh of Lettuce's view, shared by the channels that ask for one while it runs. */
	private final AtomicReference<@Nullable CompletableFuture<Void>> refresh = new AtomicReference<>();

	/**
	 * @param messages takes each message's channel and body, on Lettuce's event loop
	 * @param housekeeping where failed subscriptions are tried again, the first {@code retryInterval} after
	 * the failure, and where the channels' nodes are checked every {@code retryInterval}
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
		RedisClusterClient client = client();
		StatefulRedisClusterPubSubConnection<String, String> opened = client.connectPubSub(StringCodec.UTF8);
		opened.addListener(new RedisClusterPubSubAdapter<>() {

			@Override
			public void smessage(RedisClusterNode node, String channel, String message) {
				ShardedSubscriber.this.messages.accept(channel, message);
			}

			@Override
			public void sunsubscribed(RedisClusterNode node, String channel, long count) {
				if (ShardedSubscriber.this.placed.remove(channel, node.getNodeId())) {
					resubscribe(channel, true);
				}
			}

		});
		this.connection = opened;
		this.topologyChanges = client.getResources().eventBus().get()
			.filter(ClusterTopologyChangedEvent.class::isInstance)
			.subscribe((changed) -> this.housekeeping.execute(this::auditPlacements));
		this.audit = this.housekeeping.scheduleWithFixedDelay(this::auditPlacements, this.retryInterval.toMillis(),
				this.retryInterval.toMillis(), TimeUnit.MILLISECONDS);
		this.channels.forEach((channel) -> resubscribe(channel, false));
	}

	/** Closes the connection without waiting for it; the channels stay wanted for the next start. */
	synchronized void stop() {
		Disposable changes = this.topologyChanges;
		ScheduledFuture<?> audits = this.audit;
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		this.topologyChanges = null;
		this.audit = null;
		this.connection = null;
		if (changes != null) {
			changes.dispose();
		}
		if (audits != null) {
			audits.cancel(false);
		}
		if (current != null) {
			current.closeAsync();
		}
		this.placed.clear();
		this.silentNodes.clear();
	}

	/**
	 * Subscribes to {@code channel} on the master of its slot, and waits for its answer at most
	 * {@link #ANSWER_TIMEOUT}, unless that master let the last attempt fail: one silent master holds up the
	 * housekeeping thread once, not once per channel. Until it is subscribed, or no longer wanted, tries again
	 * in the background.
	 * @throws CompletionException when the node refused it, as Redis 6.2 and a user without the command do
	 */
	void subscribe(String channel) {
		this.channels.add(channel);
		CompletableFuture<Void> first = resubscribe(channel, false);
		RedisClusterNode owner = owner(channel);
		if (owner != null && this.silentNodes.contains(owner.getNodeId())) {
			return;
		}
		try {
			first.join();
		}
		catch (CompletionException ex) {
			String failure = String.valueOf(ex.getMessage());
			if (RedisAcl.isRefusal(failure) || failure.contains("unknown command")) {
				throw ex;
			}
			logger.debug("Not yet subscribed to the releases of a lock; retrying in the background", ex);
		}
	}

	/** Unsubscribes from {@code channel} on the node that has it, without waiting for its answer. */
	void unsubscribe(String channel) {
		this.channels.remove(channel);
		String node = this.placed.remove(channel);
		if (node != null) {
			leave(node, channel);
		}
	}

	/**
	 * Subscribes {@code channel} again, unless an attempt is already under way or waiting (it then goes on
	 * once more), first refreshing Lettuce's view when {@code moved} (its node dropped it, or was lost).
	 * @return the outcome of the first attempt
	 */
	private CompletableFuture<Void> resubscribe(String channel, boolean moved) {
		Attempts started = new Attempts(channel, moved);
		Attempts running = this.attempts.putIfAbsent(channel, started);
		if (running != null) {
			running.again = true;
			return running.first;
		}
		if (moved) {
			refreshView().whenComplete((refreshed, failure) -> started.attempt());
		}
		else {
			started.attempt();
		}
		return started.first;
	}

	/**
	 * Subscribes again each wanted channel that is not on the master of its slot in Lettuce's view, or whose
	 * connection to its node was lost (a master killed: it sends no {@code SUNSUBSCRIBE}); on the
	 * housekeeping thread, every retry interval and after each topology change. Never blocks.
	 */
	private void auditPlacements() {
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		if (current == null) {
			return;
		}
		for (String channel : this.channels) {
			String node = this.placed.get(channel);
			if (node == null) {
				if (!this.attempts.containsKey(channel)) {
					resubscribe(channel, false);
				}
				continue;
			}
			RedisClusterNode owner = owner(channel);
			if (owner == null || !owner.getNodeId().equals(node) || !isConnected(current, node)) {
				resubscribe(channel, true);
			}
		}
	}

	/** Whether the connection to {@code node} is open, or still opening. */
	private static boolean isConnected(StatefulRedisClusterPubSubConnection<String, String> current, String node) {
		CompletableFuture<StatefulRedisPubSubConnection<String, String>> nodeConnection = nodeConnection(current,
				node);
		return !nodeConnection.isDone()
				|| (!nodeConnection.isCompletedExceptionally() && nodeConnection.join().isOpen());
	}

	/** The connection to {@code node}, opened when there is none; failed for a node Lettuce no longer knows. */
	private static CompletableFuture<StatefulRedisPubSubConnection<String, String>> nodeConnection(
			StatefulRedisClusterPubSubConnection<String, String> current, String node) {
		try {
			return current.getConnectionAsync(node);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/** Unsubscribes {@code channel} on {@code node} alone, and lets it fail: a node gone has no subscription. */
	private void leave(String node, String channel) {
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		if (current == null) {
			return;
		}
		nodeConnection(current, node)
			.thenCompose((nodeConnection) -> nodeConnection.async().sunsubscribe(channel))
			.orTimeout(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
			.whenComplete((unsubscribed, failure) -> {
				if (failure != null) {
					logger.debug("Could not unsubscribe from the releases of a lock on the node that had them",
							failure);
				}
			});
	}

	/**
	 * Refreshes Lettuce's view of the cluster, once for all the channels that ask meanwhile; never fails.
	 * Takes no lock: it runs on Lettuce's threads too, which {@link #start()} may be waiting for.
	 */
	private CompletableFuture<Void> refreshView() {
		CompletableFuture<Void> running = this.refresh.get();
		if (running != null && !running.isDone()) {
			return running;
		}
		CompletableFuture<Void> started = new CompletableFuture<>();
		if (!this.refresh.compareAndSet(running, started)) {
			return refreshView();
		}
		try {
			client().refreshPartitionsAsync().toCompletableFuture()
				.orTimeout(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
				.whenComplete((refreshed, failure) -> {
					if (failure != null) {
						logger.debug("Could not refresh the view of the cluster", failure);
					}
					started.complete(null);
				});
		}
		catch (RuntimeException ex) {
			logger.debug("Could not refresh the view of the cluster", ex);
			started.complete(null);
		}
		return started;
	}

	/** The master of the slot of {@code channel} in Lettuce's view. */
	private @Nullable RedisClusterNode owner(String channel) {
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		return (current != null) ? current.getPartitions().getMasterBySlot(SlotHash.getSlot(channel)) : null;
	}

	private RedisClusterClient client() {
		return (RedisClusterClient) this.connectionFactory.getNativeClient();
	}

	/**
	 * The attempts to subscribe one channel, one after the other: each sends {@code SSUBSCRIBE} to the master
	 * of the channel's slot in Lettuce's view, and a failed one (unanswered within {@link #ANSWER_TIMEOUT}, or
	 * refused) is followed by a refresh of the view and another, after a backoff that doubles up to
	 * {@link #LONGEST_BACKOFF}. After a move, the node that answered is checked against a refreshed view.
	 * Never blocks: attempts also run on Lettuce's threads.
	 */
	private final class Attempts {

		private final String channel;

		/** Whether the channel left its node: the node that takes it is checked against a refreshed view. */
		private final boolean moved;

		/** The outcome of the first attempt. */
		private final CompletableFuture<Void> first = new CompletableFuture<>();

		/** Whether another attempt was asked for while this one was under way. */
		private volatile boolean again;

		private int failures;

		Attempts(String channel, boolean moved) {
			this.channel = channel;
			this.moved = moved;
		}

		void attempt() {
			StatefulRedisClusterPubSubConnection<String, String> current = ShardedSubscriber.this.connection;
			RedisClusterNode owner = owner(this.channel);
			if (current == null || !ShardedSubscriber.this.channels.contains(this.channel)) {
				finish();
				return;
			}
			this.again = false;
			if (owner == null) {
				failed(null, new IllegalStateException("No master serves the slot of a lock's releases"));
				return;
			}
			String node = owner.getNodeId();
			nodeConnection(current, node)
				.thenCompose((nodeConnection) -> nodeConnection.async().ssubscribe(this.channel))
				.orTimeout(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
				.whenComplete((subscribed, failure) -> {
					if (failure != null) {
						failed(node, failure);
					}
					else {
						subscribed(node);
					}
				});
		}

		private void subscribed(String node) {
			String previous = ShardedSubscriber.this.placed.put(this.channel, node);
			if (previous != null && !previous.equals(node)) {
				leave(previous, this.channel);
			}
			if (ShardedSubscriber.this.silentNodes.remove(node)) {
				logger.info("A Redis master answers the shard channels' subscriptions again");
			}
			this.first.complete(null);
			if (!ShardedSubscriber.this.channels.contains(this.channel)) {
				ShardedSubscriber.this.placed.remove(this.channel, node);
				leave(node, this.channel);
				finish();
			}
			else if (this.again) {
				attempt();
			}
			else if (this.moved || previous != null || this.failures > 0) {
				refreshView().whenComplete((refreshed, failure) -> checkOwner(node));
			}
			else {
				finish();
			}
		}

		/** After a move: the node that answered still has the slot, or the channel moves on. */
		private void checkOwner(String node) {
			RedisClusterNode owner = owner(this.channel);
			if (owner != null && owner.getNodeId().equals(node) && !this.again) {
				finish();
			}
			else {
				retryLater();
			}
		}

		private void failed(@Nullable String node, Throwable failure) {
			if (node != null && ShardedSubscriber.this.silentNodes.add(node)) {
				logger.info("A Redis master did not subscribe to a shard channel (" + failure
						+ "); its channels are retried with a backoff of up to " + LONGEST_BACKOFF.toSeconds()
						+ "s, and their waiters re-check until then");
			}
			else {
				logger.debug("Could not subscribe to the releases of a lock; retrying", failure);
			}
			this.first.completeExceptionally(failure);
			refreshView();
			retryLater();
		}

		private void retryLater() {
			long backoff = Math.min(LONGEST_BACKOFF.toMillis(),
					ShardedSubscriber.this.retryInterval.toMillis() << Math.min(this.failures, 16));
			this.failures++;
			try {
				ShardedSubscriber.this.housekeeping.schedule(this::attempt, backoff, TimeUnit.MILLISECONDS);
			}
			catch (RejectedExecutionException ex) {
				// shut down: nothing to subscribe to any more
				finish();
			}
		}

		private void finish() {
			ShardedSubscriber.this.attempts.remove(this.channel, this);
			if (this.again && ShardedSubscriber.this.channels.contains(this.channel)) {
				resubscribe(this.channel, false);
			}
		}

	}

}
