/**
 * The documentation's snippets about the adapters module (docs/guide/adapters.md), compiled and tested
 * here; {@code ReadmeSnippetsTests} of the auto-configuration module keeps the pages and these files equal.
 */
@NullMarked
package dev.locksmith.adapters.readme;

import org.jspecify.annotations.NullMarked;
