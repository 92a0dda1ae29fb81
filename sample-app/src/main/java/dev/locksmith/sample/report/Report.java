package dev.locksmith.sample.report;

import java.time.Instant;

/**
 * The nightly report.
 *
 * @param totalCents the sum of every balance
 * @param accounts how many accounts there are
 * @param startedAt when the run started
 * @param finishedAt when it finished
 * @param renewals how many times the lock's lease was renewed while it ran
 */
public record Report(long totalCents, int accounts, Instant startedAt, Instant finishedAt, long renewals) {
}
