package dev.locksmith.kotlin

import dev.locksmith.core.DefaultLockService
import dev.locksmith.redis.RedisLockStore
import dev.locksmith.testing.RedisServer

/**
 * Lock services on one test Redis, each with its own connections as a separate process would have, all closed by
 * [close], the latest first.
 */
internal class RedisLockServices(private val redis: RedisServer) : AutoCloseable {

    private val resources = ArrayDeque<AutoCloseable>()

    /**
     * A new lock service with its own connections and store, connected before it is handed out: a JVM's first
     * connection (Lettuce's and Netty's start) can take longer than a store call may, on a busy machine.
     */
    fun service(): DefaultLockService {
        val connections = redis.connectionFactory()
        resources.addFirst(AutoCloseable { connections.destroy() })
        connections.connection.use { it.ping() }
        val store = RedisLockStore.builder(connections).build()
        resources.addFirst(store)
        return DefaultLockService.builder(store).build().also(resources::addFirst)
    }

    /** Deletes the lock of [key] in Redis, so that its holder's next renewal is refused and the lease is lost. */
    fun loseLease(key: String) {
        check(redis.command("DEL", "lock:{$key}") == "1") { "no lock on $key to delete" }
    }

    override fun close() {
        resources.forEach(AutoCloseable::close)
        resources.clear()
    }
}
