/**
 * Helpers shared by Locksmith's own packages; not API, and free to change in any release.
 */
@NullMarked
package dev.locksmith.core.internal;

import org.jspecify.annotations.NullMarked;
