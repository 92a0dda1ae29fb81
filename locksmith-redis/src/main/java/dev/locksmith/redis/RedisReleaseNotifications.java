package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import dev.locksmith.core.ReleaseNotifications;

/**
 * Release notifications over Redis pub/sub: one subscriber connection for the whole process, on
 * which it subscribes to the channel of a key only while it has waiters for that key (and a few
 * seconds more, so a busy key is not subscribed and unsubscribed for every wait). Messages are
 * dispatched on one thread with a bounded queue; should it overflow, the dropped hand-overs are
 * caught by the waiters' re-check. When Redis is down at start, subscribing is retried in the
 * background; until then waiters fall back to their bounded re-check.
 *
 * <p>With Jedis, whose subscription is a loop that blocks its thread, the subscription runs on threads of
 * its own, never on the dispatch thread. Stopping and closing wait for the listener container a few
 * seconds at most: with Redis gone, its recovery can hold its subscriber's lock for as long as Redis
 * stays away, and the application's shutdown goes on without it.
 *
 * <p>{@link RedisLockStore} initializes, starts, stops and destroys its listener container.
 *
 * <p>Asked for sharded pub/sub, on a Redis Cluster through Lettuce, the channels are shard channels, on a
 * {@link ShardedSubscriber} instead of the container: a release is published within the shard of its
 * lock's slot, where the scripts {@code SPUBLISH} it, instead of over the cluster bus to every node. A
 * cluster that refuses {@code SSUBSCRIBE} (a user without it, or Redis 6.2, which does not know it)
 * gets classic channels instead, for every key watched so far too. Standalone, Sentinel and Jedis keep
 * classic pub/sub.
 */
final class RedisReleaseNotifications implements ReleaseNotifications {

	/** Most hand-overs queued for dispatch; beyond that they are dropped and waiters re-check. */
	static final int DISPATCH_QUEUE = 10_000;

	/** How long a key stays subscribed after its last waiter left. */
	static final Duration LINGER = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(RedisReleaseNotifications.class);

	/** Longest that stopping, or closing, the listener container holds up the application's shutdown. */
	static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration RECOVERY_INTERVAL = Duration.ofSeconds(1);

	private final RedisMessageListenerContainer container = new RedisMessageListenerContainer();

	private final ThreadPoolExecutor dispatcher;

	/**
	 * Runs Jedis's blocking subscription loops (Lettuce's subscriptions need no thread): a new thread
	 * whenever the previous loop has not yet returned, as the container's own default executor would give.
	 */
	private final ExecutorService subscription = Executors
		.newCachedThreadPool(DaemonThreads.named("locksmith-subscription"));

	private final ThreadFactory stopping = DaemonThreads.named("locksmith-subscriber-stop");

	private final ScheduledExecutorService housekeeping = Executors
		.newSingleThreadScheduledExecutor(DaemonThreads.named("locksmith-subscriber"));

	private final RedisLockKeys keys;

	/** The channel of the blank key, which no lock has: subscribed from the start to open the connection. */
	private final String connectionChannel;

	private final MessageListener messages = this::dispatch;

	private final Map<String, Integer> waitersByKey = new ConcurrentHashMap<>();

	/** The subscribed keys, each with when it last lost its last waiter (0 while it has waiters). */
	private final Map<String, Long> subscribed = new ConcurrentHashMap<>();

	private final ReentrantLock subscriptions = new ReentrantLock();

	private volatile @Nullable Listener listener;

	private volatile @Nullable ScheduledFuture<?> idleKeys;

	private final RedisConnectionFactory connectionFactory;

	/** The shard channels' subscriber on a Lettuce cluster, else {@code null}. */
	private final @Nullable ShardedSubscriber shards;

	/** Whether the channels are shard channels, on {@link #shards}; turned off on the housekeeping thread. */
	private volatile boolean sharded;

	RedisReleaseNotifications(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this(connectionFactory, keys, false);
	}

	/** Notifications on shard channels where {@code shardedPubSub} can apply and the servers have them. */
	RedisReleaseNotifications(RedisConnectionFactory connectionFactory, RedisLockKeys keys, boolean shardedPubSub) {
		this.connectionFactory = connectionFactory;
		this.keys = keys;
		this.connectionChannel = keys.releaseChannel("");
		this.dispatcher = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
				new ArrayBlockingQueue<>(DISPATCH_QUEUE), DaemonThreads.named("locksmith-notify"),
				(task, pool) -> logger.debug("Dropped a lock hand-over notification; its waiter re-checks"));
		this.container.setConnectionFactory(connectionFactory);
		this.container.setTaskExecutor(this.dispatcher);
		this.container.setSubscriptionExecutor(this.subscription);
		this.container.setRecoveryInterval(RECOVERY_INTERVAL.toMillis());
		this.shards = RedisLockBackend.shardedPubSub(connectionFactory, shardedPubSub)
				? new ShardedSubscriber((LettuceConnectionFactory) connectionFactory, this::queue, this.housekeeping,
						RECOVERY_INTERVAL)
				: null;
		this.sharded = this.shards != null;
	}

	/** Notifications initialized and started at once, for use without an application context. */
	static RedisReleaseNotifications started(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		return started(connectionFactory, keys, false);
	}

	/** Notifications initialized and started at once, on shard channels where {@code shardedPubSub} can apply. */
	static RedisReleaseNotifications started(RedisConnectionFactory connectionFactory, RedisLockKeys keys,
			boolean shardedPubSub) {
		RedisReleaseNotifications notifications = new RedisReleaseNotifications(connectionFactory, keys,
				shardedPubSub);
		notifications.afterPropertiesSet();
		notifications.start();
		return notifications;
	}

	/** Initializes the listener container. */
	public void afterPropertiesSet() {
		this.container.afterPropertiesSet();
	}

	/**
	 * Subscribes, retrying in the background while Redis is down, and starts unsubscribing idle keys.
	 * The subscriber connection is opened at once, on the channel of the blank key that no lock has, so
	 * that the first waiter does not wait for it to connect. On a Lettuce cluster, the housekeeping thread
	 * first chooses between shard and classic channels.
	 */
	public void start() {
		if (this.idleKeys == null) {
			this.idleKeys = this.housekeeping.scheduleWithFixedDelay(this::unsubscribeIdleKeys, LINGER.toMillis(),
					LINGER.toMillis(), TimeUnit.MILLISECONDS);
			if (this.sharded) {
				this.housekeeping.execute(this::startShardChannels);
			}
			else {
				startClassicChannels();
			}
		}
	}

	public void stop() {
		ScheduledFuture<?> started = this.idleKeys;
		if (started != null) {
			started.cancel(false);
			this.idleKeys = null;
			stopShards();
			awaitContainer("stop", new FutureTask<>(this.container::stop, null));
		}
	}

	public boolean isRunning() {
		return this.idleKeys != null;
	}

	@Override
	public void listen(Listener listener) {
		this.listener = listener;
	}

	/**
	 * Counts the waiter, and subscribes on the housekeeping thread when the key is new: a Redis that
	 * stopped answering holds up that thread, never a waiter beyond {@code maxWait}.
	 */
	@Override
	public boolean watch(String key, Duration maxWait) {
		CompletableFuture<Void> subscription;
		this.subscriptions.lock();
		try {
			this.waitersByKey.merge(key, 1, Integer::sum);
			if (this.subscribed.put(key, 0L) != null) {
				return false;
			}
			subscription = CompletableFuture.runAsync(() -> subscribe(this.keys.releaseChannel(key)), this.housekeeping);
		}
		catch (RejectedExecutionException ex) {
			return true;
		}
		finally {
			this.subscriptions.unlock();
		}
		try {
			subscription.get(maxWait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			logger.debug("Not yet subscribed to the releases of a lock; its waiters re-check until then", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return true;
	}

	@Override
	public void unwatch(String key) {
		this.subscriptions.lock();
		try {
			if (this.waitersByKey.computeIfPresent(key, (k, count) -> (count > 1) ? count - 1 : null) == null) {
				this.subscribed.replace(key, System.nanoTime() | 1);
			}
		}
		finally {
			this.subscriptions.unlock();
		}
	}

	/** Stops listening for good, and frees the subscriber connection and threads. */
	void destroy() {
		this.housekeeping.shutdownNow();
		stopShards();
		try {
			awaitContainer("close", new FutureTask<>(() -> {
				this.container.destroy();
				return null;
			}));
		}
		finally {
			this.dispatcher.shutdownNow();
			this.subscription.shutdownNow();
		}
	}

	/**
	 * Runs {@code task}, a step of the listener container, on a daemon thread of its own and waits for it at
	 * most {@link #STOP_TIMEOUT}; past that, leaves it to finish, or not, without holding up the caller.
	 */
	private void awaitContainer(String step, FutureTask<?> task) {
		this.stopping.newThread(task).start();
		try {
			task.get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			logger.info("Gave up waiting " + STOP_TIMEOUT.toMillis() + "ms for the release notifications' subscriber "
					+ "to " + step + " (is Redis gone?); the shutdown goes on without it");
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("Could not " + step + " the release notifications' subscriber",
					ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void connectSubscriber() {
		try {
			subscribe(this.connectionChannel);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not open the subscriber connection ahead of the first waiter", ex);
		}
	}

	private void subscribe(String channel) {
		if (this.sharded) {
			this.shards.subscribe(channel);
		}
		else {
			this.container.addMessageListener(this.messages, ChannelTopic.of(channel));
		}
	}

	private void unsubscribe(String channel) {
		if (this.sharded) {
			this.shards.unsubscribe(channel);
		}
		else {
			this.container.removeMessageListener(this.messages, ChannelTopic.of(channel));
		}
	}

	private void stopShards() {
		ShardedSubscriber started = this.shards;
		if (started != null) {
			started.stop();
		}
	}

	private void startClassicChannels() {
		startListening(true);
		this.housekeeping.execute(this::connectSubscriber);
	}

	/**
	 * Connects the shard channels' subscriber and subscribes the keys watched so far, on the housekeeping
	 * thread, so that no subscription runs before; while it cannot connect, tries again every
	 * {@link #RECOVERY_INTERVAL}. A cluster that refuses shard channels gets classic ones.
	 */
	private void startShardChannels() {
		if (!isRunning()) {
			return;
		}
		try {
			this.shards.start();
			this.shards.subscribe(this.connectionChannel);
		}
		catch (RuntimeException ex) {
			String failure = String.valueOf(ex.getMessage());
			if (!RedisAcl.isRefusal(failure) && !failure.contains("unknown command")) {
				logger.debug("Could not connect the shard channels' subscriber; retrying", ex);
				retryStart();
				return;
			}
			logger.info("The cluster does not let Locksmith subscribe to shard channels (a Redis 7 user needs "
					+ "+ssubscribe +sunsubscribe +spublish); release notifications use classic pub/sub: " + failure);
			this.shards.stop();
			this.sharded = false;
			startClassicChannels();
			this.subscribed.keySet().forEach((key) -> subscribe(this.keys.releaseChannel(key)));
		}
		if (!isRunning()) {
			// stopped while connecting: the connection opened after the stop must not outlive it
			stopShards();
		}
	}

	private void retryStart() {
		try {
			this.housekeeping.schedule(this::startShardChannels, RECOVERY_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// destroyed meanwhile
		}
	}

	/** Unsubscribes from the keys that have had no waiter here for at least {@link #LINGER}. */
	private void unsubscribeIdleKeys() {
		long now = System.nanoTime();
		for (Map.Entry<String, Long> key : this.subscribed.entrySet()) {
			long idleSince = key.getValue();
			if (idleSince != 0 && now - idleSince >= LINGER.toNanos()) {
				unsubscribeIfIdle(key.getKey(), idleSince);
			}
		}
	}

	/** Runs on the housekeeping thread, after any subscription of the key that was asked for before. */
	private void unsubscribeIfIdle(String key, long idleSince) {
		this.subscriptions.lock();
		try {
			if (!this.subscribed.remove(key, idleSince)) {
				return;
			}
		}
		finally {
			this.subscriptions.unlock();
		}
		try {
			unsubscribe(this.keys.releaseChannel(key));
		}
		catch (RuntimeException ex) {
			logger.debug("Could not unsubscribe from the releases of a lock", ex);
		}
	}

	/** How many notifications wait for the listener. */
	int pendingNotifications() {
		return this.dispatcher.getQueue().size();
	}

	/** Reads a hand-over, in the form {@link HandOverMessages} describes; the connection's own channel carries none. */
	private void dispatch(Message message, byte @Nullable [] pattern) {
		deliver(new String(message.getChannel(), StandardCharsets.UTF_8),
				new String(message.getBody(), StandardCharsets.UTF_8));
	}

	/** Queues a shard channel's message for the dispatch thread, as the container does a classic one's. */
	private void queue(String channel, String message) {
		this.dispatcher.execute(() -> deliver(channel, message));
	}

	private void deliver(String channel, String message) {
		Listener target = this.listener;
		if (target != null && !channel.equals(this.connectionChannel)) {
			HandOverMessages.deliver(this.keys.keyOfChannel(channel), message, target);
		}
	}

	private void startListening(boolean firstAttempt) {
		try {
			this.container.start();
		}
		catch (RuntimeException ex) {
			if (firstAttempt) {
				logger.warn("Could not subscribe to lock release notifications; retrying every "
						+ RECOVERY_INTERVAL.toMillis() + "ms, and waiters re-check until then: " + ex.getMessage());
			}
			this.container.stop();
			if (isRunning() && !this.housekeeping.isShutdown()) {
				this.housekeeping.schedule(() -> startListening(false), RECOVERY_INTERVAL.toMillis(),
						TimeUnit.MILLISECONDS);
			}
		}
	}

}
