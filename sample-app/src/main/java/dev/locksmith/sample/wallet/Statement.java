package dev.locksmith.sample.wallet;

import java.time.Instant;

/**
 * An account statement, produced asynchronously while the account's statement lock is held.
 *
 * @param account the account
 * @param preparedAt when it was produced
 * @param fencingToken the fencing token of the lock it was produced under
 */
public record Statement(Account account, Instant preparedAt, long fencingToken) {
}
