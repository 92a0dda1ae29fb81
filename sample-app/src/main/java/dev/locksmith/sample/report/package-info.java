/**
 * A long nightly job that only one instance runs, kept alive past its lease by renewal.
 */
@NullMarked
package dev.locksmith.sample.report;

import org.jspecify.annotations.NullMarked;
