/**
 * The wallet: balances updated under a distributed lock and written with its fencing token.
 */
@NullMarked
package dev.locksmith.sample.wallet;

import org.jspecify.annotations.NullMarked;
