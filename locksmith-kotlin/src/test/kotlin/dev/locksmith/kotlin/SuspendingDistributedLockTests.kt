package dev.locksmith.kotlin

import dev.locksmith.annotation.DistributedLock
import dev.locksmith.aop.DistributedLockAdvisor
import dev.locksmith.aop.DistributedLockMethodValidator
import dev.locksmith.aop.LockDeclarationException
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
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.aop.framework.ProxyFactory
import org.springframework.beans.factory.support.DefaultListableBeanFactory

/**
 * `@DistributedLock` on a `suspend fun` holds its lock until the coroutine completes, across its suspensions, and
 * releases it when the coroutine is cancelled; a lost lease ends it with [LockLostException]; a `fun` returning a
 * `Flow` holds its lock while the flow runs. What another owner sees is asked of a second lock service with
 * its own connections, as another process would.
 */
class SuspendingDistributedLockTests {

    companion object {
        @JvmField
        @RegisterExtension
        val redisServer = RedisServerExtension()

        private val PATIENCE: Duration = Duration.ofSeconds(30)
    }

    private lateinit var services: RedisLockServices

    private lateinit var other: LockService

    private lateinit var worker: Worker

    @BeforeEach
    fun proxyTheWorker() {
        services = RedisLockServices(redisServer.server())
        val holder = services.service()
        other = services.service()
        val advisor = DistributedLockAdvisor({ holder }, DefaultListableBeanFactory(), { Duration.ofSeconds(30) },
            { Duration.ZERO })
        worker = ProxyFactory(Worker()).apply {
            isProxyTargetClass = true
            addAdvisor(advisor)
        }.proxy as Worker
    }

    @AfterEach
    fun close() {
        services.close()
    }

    @Test
    fun aSuspendFunHoldsItsLockAcrossItsSuspensionsUntilItCompletes(): Unit = runBlocking {
        val started = CompletableDeferred<Unit>()
        val finish = CompletableDeferred<Unit>()
        val result = async(Dispatchers.Default) { worker.work("1", started, finish) }
        withTimeout(PATIENCE.toMillis()) { started.await() }
        delay(200)

        assertThat(other.isLocked("work:1")).`as`("held while the coroutine is suspended in delay()").isTrue()
        assertThat(other.tryAcquire("work:1", LockOptions.ofTtl(Duration.ofSeconds(5)))).isEmpty()

        finish.complete(Unit)
        assertThat(withTimeout(PATIENCE.toMillis()) { result.await() }).isEqualTo("worked 1")
        other.tryAcquire("work:1", LockOptions.ofTtl(Duration.ofSeconds(5))).orElseThrow().close()
    }

    @Test
    fun cancellingASuspendFunMidWorkReleasesItsLockPromptly(): Unit = runBlocking {
        val started = CompletableDeferred<Unit>()
        val job = launch(Dispatchers.Default) { worker.workUntilCancelled("2", started) }
        withTimeout(PATIENCE.toMillis()) { started.await() }
        assertThat(other.isLocked("work:2")).isTrue()

        job.cancel()

        // the lease is 30 s: a lock taken within 10 s was released, not expired
        val acquired = other.tryAcquire("work:2", LockOptions.ofTtl(Duration.ofSeconds(5)).withWaitTime(Duration.ofSeconds(10)))
        assertThat(acquired).isPresent()
        acquired.get().close()
        assertThat(job.isCancelled).isTrue()
    }

    @Test
    fun aLostLeaseEndsTheSuspendFunWithLockLostException(): Unit = runBlocking {
        val started = CompletableDeferred<Unit>()
        val cancelled = CompletableDeferred<Unit>()
        val result = async(Dispatchers.Default) {
            runCatching { worker.shortLeaseUntilCancelled("3", started, cancelled) }
        }
        withTimeout(PATIENCE.toMillis()) { started.await() }

        services.loseLease("short:3")

        val failure = withTimeout(PATIENCE.toMillis()) { result.await() }.exceptionOrNull()
        assertThat(failure).isInstanceOf(LockLostException::class.java)
        assertThat(cancelled.isCompleted).`as`("the coroutine was cancelled, not left running").isTrue()
    }

    @Test
    fun aFlowHoldsItsLockWhileItRuns(): Unit = runBlocking {
        val seenHeld = mutableListOf<Boolean>()
        val collected = withTimeout(PATIENCE.toMillis()) {
            worker.ticks("4") { seenHeld += other.isLocked("ticks:4") }.toList()
        }
        assertThat(collected).containsExactly(0, 1, 2)
        assertThat(seenHeld).`as`("held each time the flow emitted").containsExactly(true, true, true)
        await().atMost(PATIENCE).until { !other.isLocked("ticks:4") }
    }

    @Test
    fun startupValidationAcceptsASuspendFunAndNamesTheOneWhoseFallbackItRefuses() {
        val advisor = DistributedLockAdvisor({ other }, DefaultListableBeanFactory(), { Duration.ofSeconds(30) },
            { Duration.ZERO })
        val validator = DistributedLockMethodValidator({ advisor }, true)

        validator.postProcessBeforeInitialization(Worker(), "worker")

        assertThatExceptionOfType(LockDeclarationException::class.java)
            .isThrownBy { validator.postProcessBeforeInitialization(FallingBack(), "fallingBack") }
            .withMessageContaining("FallingBack.work(String, Continuation)")
            .withMessageContaining("suspend fun")
    }

    /** Suspending work under locks; open, as a class-based proxy needs. */
    open class Worker {

        @DistributedLock(name = "work", key = "#id")
        open suspend fun work(id: String, started: CompletableDeferred<Unit>, finish: CompletableDeferred<Unit>): String {
            started.complete(Unit)
            while (!finish.isCompleted) {
                delay(20)
            }
            return "worked $id"
        }

        @DistributedLock(name = "work", key = "#id")
        open suspend fun workUntilCancelled(id: String, started: CompletableDeferred<Unit>) {
            started.complete(Unit)
            awaitCancellation()
        }

        @DistributedLock(name = "short", key = "#id", ttl = "600ms")
        open suspend fun shortLeaseUntilCancelled(
            id: String,
            started: CompletableDeferred<Unit>,
            cancelled: CompletableDeferred<Unit>,
        ) {
            started.complete(Unit)
            try {
                awaitCancellation()
            } finally {
                cancelled.complete(Unit)
            }
        }

        @DistributedLock(name = "ticks", key = "#id")
        open fun ticks(id: String, beforeEach: () -> Unit): Flow<Int> = flow {
            repeat(3) {
                delay(50)
                beforeEach()
                emit(it)
            }
        }
    }

    /** A suspend fun that names a fallback, which cannot serve it. */
    open class FallingBack {

        @DistributedLock(name = "work", fallbackMethod = "later")
        open suspend fun work(id: String): String = "now $id"

        open suspend fun later(id: String): String = "later $id"
    }
}
