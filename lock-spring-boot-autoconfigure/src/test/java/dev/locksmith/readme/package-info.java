/**
 * The Java snippets of the README and of the pages under docs/, verbatim between their tag lines, so
 * that the build compiles them; {@link dev.locksmith.readme.ReadmeSnippetsTests} keeps the pages and
 * these files equal, and {@link dev.locksmith.readme.DocumentationLinksTests} keeps the pages' links whole.
 */
@NullMarked
package dev.locksmith.readme;

import org.jspecify.annotations.NullMarked;
