package dev.locksmith.kotlin

import dev.locksmith.annotation.LockMode
import dev.locksmith.core.LockBusyException
import dev.locksmith.core.LockLostException
import dev.locksmith.core.LockOptions
import dev.locksmith.core.LockService
import dev.locksmith.testing.RedisServerExtension
import java.time.Duration
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension

/**
 * [withLock] holds its lock until its block completes, across suspensions, releases it when the block is
 * cancelled, ends with [LockLostException] when the lease is lost, and holds again for a nested call on the same
 * key. What another owner sees is asked of a second lock service with its own connections.
 */
class WithLockTests {

    companion object {
        @JvmField
        @RegisterExtension
        val redisServer = RedisServerExtension()

        private val PATIENCE: Duration = Duration.ofSeconds(30)

        private val LEASE: LockOptions = LockOptions.ofTtl(Duration.ofSeconds(30))
    }

    private lateinit var services: RedisLockServices

    private lateinit var holder: LockService

    private lateinit var other: LockService

    @BeforeEach
    fun connect() {
        services = RedisLockServices(redisServer.server())
        holder = services.service()
        other = services.service()
    }

    @AfterEach
    fun close() {
        services.close()
    }

    @Test
    fun theBlockHoldsTheLockAcrossItsSuspensionsUntilItCompletes(): Unit = runBlocking {
        val started = CompletableDeferred<Unit>()
        val finish = CompletableDeferred<Unit>()
        val result = async(Dispatchers.Default) {
            holder.withLock("kt:1", LEASE) {
                started.complete(Unit)
                while (!finish.isCompleted) {
                    delay(20)
                }
                "done"
            }
        }
        withTimeout(PATIENCE.toMillis()) { started.await() }
        delay(200)

        assertThat(other.isLocked("kt:1")).isTrue()
        assertThat(other.tryAcquire("kt:1", LEASE)).isEmpty()

        finish.complete(Unit)
        assertThat(withTimeout(PATIENCE.toMillis()) { result.await() }).isEqualTo("done")
        assertThat(other.isLocked("kt:1")).isFalse()
    }

    @Test
    fun cancellingTheBlockMidWorkReleasesTheLockPromptly(): Unit = runBlocking {
        val started = CompletableDeferred<Unit>()
        val job = launch(Dispatchers.Default) {
            holder.withLock("kt:2", LEASE) {
                started.complete(Unit)
                awaitCancellation()
            }
        }
        withTimeout(PATIENCE.toMillis()) { started.await() }

        job.cancel()

        // the lease is 30 s: a lock taken within 10 s was released, not expired
        val acquired = other.tryAcquire("kt:2", LEASE.withWaitTime(Duration.ofSeconds(10)))
        assertThat(acquired).isPresent()
        acquired.get().close()
    }

    @Test
    fun cancellingAWaitingCallerLeavesNoLockBehind(): Unit = runBlocking {
        val busy = other.acquire("kt:3", LEASE)
        val waiting = launch(Dispatchers.Default) {
            holder.withLock("kt:3", LEASE.withWaitTime(PATIENCE)) { error("ran without the lock") }
        }
        delay(200)

        waiting.cancel()
        withTimeout(PATIENCE.toMillis()) { waiting.join() }
        busy.close()

        assertThat(holder.heldLocks()).isEmpty()
        assertThat(other.isLocked("kt:3")).isFalse()
    }

    @Test
    fun aLostLeaseCancelsTheBlockAndEndsWithLockLostException(): Unit = runBlocking {
        val started = CompletableDeferred<Unit>()
        val cancelled = CompletableDeferred<Unit>()
        val result = async(Dispatchers.Default) {
            runCatching {
                holder.withLock("kt:4", LockOptions.ofTtl(Duration.ofMillis(600))) {
                    started.complete(Unit)
                    try {
                        awaitCancellation()
                    } finally {
                        cancelled.complete(Unit)
                    }
                }
            }
        }
        withTimeout(PATIENCE.toMillis()) { started.await() }

        services.loseLease("kt:4")

        val failure = withTimeout(PATIENCE.toMillis()) { result.await() }.exceptionOrNull()
        assertThat(failure).isInstanceOf(LockLostException::class.java)
        assertThat(cancelled.isCompleted).isTrue()
    }

    @Test
    fun aBusyLockEndsWithLockBusyExceptionWithoutRunningTheBlock(): Unit = runBlocking {
        other.acquire("kt:5", LEASE).use {
            val failure = runCatching { holder.withLock("kt:5", LEASE) { error("ran without the lock") } }
                .exceptionOrNull()
            assertThat(failure).isInstanceOf(LockBusyException::class.java)
        }
    }

    @Test
    fun aNestedCallOnTheSameKeyHoldsAgainAndTheLockLastsUntilTheOuterEnds(): Unit = runBlocking {
        val result = withTimeout(PATIENCE.toMillis()) {
            holder.withLock("kt:6", LEASE) {
                val inner = holder.withLock("kt:6", LEASE) { "inner" }
                assertThat(other.isLocked("kt:6")).`as`("still held after the nested call").isTrue()
                inner
            }
        }
        assertThat(result).isEqualTo("inner")
        assertThat(other.isLocked("kt:6")).isFalse()
    }

    @Test
    fun aNestedCallForAnotherShareOfTheKeyFailsInsteadOfWaitingForItsCaller(): Unit = runBlocking {
        val failure = withTimeout(PATIENCE.toMillis()) {
            holder.withLock("kt:7", LEASE) {
                runCatching { holder.withLock("kt:7", LEASE.withMode(LockMode.READ)) { } }
                    .exceptionOrNull()
            }
        }
        assertThat(failure).isInstanceOf(IllegalStateException::class.java).hasMessageContaining("kt:7")
    }
}
