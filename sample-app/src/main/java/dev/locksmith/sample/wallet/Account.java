package dev.locksmith.sample.wallet;

/**
 * An account and its balance in cents; {@code fence} is the highest fencing token that wrote it.
 *
 * @param id the account id
 * @param balance the balance in cents
 * @param fence the fencing token of the last write
 */
public record Account(String id, long balance, long fence) {
}
