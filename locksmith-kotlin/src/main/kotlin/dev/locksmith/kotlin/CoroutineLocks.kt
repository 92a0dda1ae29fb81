@file:JvmName("CoroutineLocks")

package dev.locksmith.kotlin

import dev.locksmith.core.LockHandle
import dev.locksmith.core.LockLostException
import dev.locksmith.core.LockOptions
import dev.locksmith.core.LockService
import java.util.concurrent.atomic.AtomicReference
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.future.await
import kotlinx.coroutines.launch
import kotlinx.coroutines.runInterruptible
import kotlinx.coroutines.withContext
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext

/**
 * Runs [block] under the lock of [key] and returns its result: the lock is held until [block] completes, renewed
 * while it runs (unless [options] turn renewal off), and released when it returns, fails or is cancelled. A lease
 * found lost cancels [block] and ends the call with [LockLostException].
 *
 * The engine's acquire blocks its thread while it waits, so it runs on [Dispatchers.IO], interrupted when the caller
 * is cancelled; the caller's own thread is never blocked. A busy lock ends the call with
 * [dev.locksmith.core.LockBusyException] after [LockOptions.waitTime].
 *
 * A `withLock` nested in [block] (in the same coroutine or a child) on the same key of the same service holds the
 * lock again without another round trip, as a counted hold: the lock is released when the last hold ends. A nested
 * call that asks for another share of the key (read under write, say) fails with [IllegalStateException] instead of
 * waiting for its own caller.
 *
 * @since 0.1.0
 */
suspend fun <T> LockService.withLock(key: String, options: LockOptions = options(), block: suspend () -> T): T {
    val outer = currentCoroutineContext()[HeldCoroutineLock]
    val handle = outer?.find(this, key)?.holdAgain(options) ?: acquireSuspending(key, options)
    try {
        return withContext(HeldCoroutineLock(outer, this, key, options, handle)) {
            guarded(handle, options.name(), block)
        }
    }
    finally {
        release(handle)
    }
}

/** Acquires on [Dispatchers.IO]; a lock granted just as the caller is cancelled is released, not leaked. */
private suspend fun LockService.acquireSuspending(key: String, options: LockOptions): LockHandle {
    val granted = AtomicReference<LockHandle>()
    try {
        return runInterruptible(Dispatchers.IO) { acquire(key, options).also(granted::set) }
    }
    catch (ex: CancellationException) {
        granted.get()?.let { release(it) }
        throw ex
    }
}

/** Runs [block] until it completes or the lease of [handle] is found lost, which cancels it. */
private suspend fun <T> guarded(handle: LockHandle, name: String?, block: suspend () -> T): T = coroutineScope {
    val watch = launch(start = CoroutineStart.UNDISPATCHED) {
        handle.lost().await()
        throw LockLostException(name, handle)
    }
    try {
        val result = block()
        if (!handle.isHeld) {
            throw LockLostException(name, handle)
        }
        result
    }
    finally {
        watch.cancel()
    }
}

/** Releases [handle] off the caller's thread, also when the caller is being cancelled. */
private suspend fun release(handle: LockHandle) {
    withContext(NonCancellable + Dispatchers.IO) { handle.close() }
}

/**
 * A lock that [withLock] holds, in the context of the coroutine that runs under it (and of its children), with the
 * locks held around it.
 */
private class HeldCoroutineLock(
    private val outer: HeldCoroutineLock?,
    private val service: LockService,
    private val lockKey: String,
    private val options: LockOptions,
    private val handle: LockHandle,
) : AbstractCoroutineContextElement(HeldCoroutineLock) {

    /** The innermost lock held on [key] of [service], here or around it, or `null` when none. */
    fun find(service: LockService, key: String): HeldCoroutineLock? =
        generateSequence(this) { it.outer }.firstOrNull { it.service === service && it.lockKey == key }

    /**
     * One more hold of this lock for a nested call that asks for the same share, or `null` when the lease is gone;
     * another share fails, as it could only wait for its own caller.
     */
    fun holdAgain(asked: LockOptions): LockHandle? {
        check(asked.share() == this.options.share()) {
            "withLock on '${this.lockKey}' asks for ${asked.share()}, but its caller holds the key as " +
                "${this.options.share()}: a nested call cannot take another share of a key its caller holds"
        }
        return if (this.handle.isHeld) this.handle.hold() else null
    }

    /** The key of this element in a coroutine context. */
    companion object : CoroutineContext.Key<HeldCoroutineLock>
}
