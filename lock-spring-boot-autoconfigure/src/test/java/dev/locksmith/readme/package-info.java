/**
 * The README's Java snippets, verbatim between their tag lines, so that the build compiles them;
 * {@link dev.locksmith.readme.ReadmeSnippetsTests} keeps the README and these files equal.
 */
@NullMarked
package dev.locksmith.readme;

import org.jspecify.annotations.NullMarked;
