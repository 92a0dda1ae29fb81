/**
 * The README's snippets about the test-support module, compiled here;
 * {@code ReadmeSnippetsTests} of the auto-configuration module keeps the README and these files equal.
 */
@NullMarked
package dev.locksmith.test.readme;

import org.jspecify.annotations.NullMarked;
