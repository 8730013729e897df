// Text made safe for an XML attribute or element: what every JUnit report of the kit (`contract`, `pact verify`) writes
// its names and messages through.

/**
 * Escapes text for an XML attribute or element, dropping characters XML 1.0 cannot carry.
 * @example xmlText('a < b & "c"') // 'a &lt; b &amp; &quot;c&quot;'
 */
export function xmlText(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll("'", '&apos;')
  );
}
