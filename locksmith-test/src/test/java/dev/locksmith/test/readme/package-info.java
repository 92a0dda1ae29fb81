/**
 * The documentation's snippets about the test-support module (docs/guide/testing.md), compiled here;
 * {@code ReadmeSnippetsTests} of the auto-configuration module keeps the pages and these files equal.
 */
@NullMarked
package dev.locksmith.test.readme;

import org.jspecify.annotations.NullMarked;
