/**
 * A small web service that shows Locksmith at work.
 */
@NullMarked
package dev.locksmith.sample;

import org.jspecify.annotations.NullMarked;
