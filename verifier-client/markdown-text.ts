// Text made safe for one line of Markdown (a table cell, a list item): what the contract run's job summary
// (`contract --summary`, rendered by GitHub on the run's page) writes every server-made and user-given string through.
import { terminalSafe } from './terminal-text.ts';

/**
 * The ASCII punctuation Markdown (GitHub's flavour included: tables, strikethrough, math, autolinks, mentions, issue
 * references, emoji shortcodes) may read as syntax; each is backslash-escaped, which CommonMark renders as itself.
 */
const syntax = /[\\`*_{}[\]()#+\-.!|~@:$^=]/g;

/**
 * `text` on one line, at most `length` characters, rendered literally by any CommonMark renderer: control characters
 * written out (terminalSafe), whitespace runs as one space, `&`, `<` and `>` as entities (no HTML), every other
 * Markdown character escaped (no link, image, emphasis, table cell break, mention or autolink).
 * @example markdownText('| ![x](https://e.example) <b>') // '\\| \\!\\[x\\]\\(https\\://e\\.example\\) &lt;b&gt;'
 */
export function markdownText(text: string, length = 300): string {
  const flat = terminalSafe(text.replace(/\s+/g, ' ').trim());
  const cut = flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
  return cut
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(syntax, (character) => `\\${character}`);
}
