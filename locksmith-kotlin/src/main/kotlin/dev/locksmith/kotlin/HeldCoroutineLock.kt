package dev.locksmith.kotlin

import dev.locksmith.core.LockHandle
import dev.locksmith.core.LockOptions
import dev.locksmith.core.LockService
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext

/**
 * A lock that [withLock] holds, in the context of the coroutine that runs under it (and of its children), with the
 * locks held around it.
 */
internal class HeldCoroutineLock(
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
