/**
 * A lock store on PostgreSQL: leases on the database's clock, fencing tokens, fair queues and hand-over
 * notices by {@code LISTEN/NOTIFY}.
 */
@NullMarked
package dev.locksmith.jdbc;

import org.jspecify.annotations.NullMarked;
