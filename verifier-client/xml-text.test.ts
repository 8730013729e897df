// What a JUnit report may carry of a server's or a pact's text: escaped markup, and no character XML 1.0 forbids.
import { describe, expect, it } from 'vitest';
import { xmlText } from './xml-text.ts';

describe('xmlText', () => {
  it.each([
    ['a < b & "c"', 'a &lt; b &amp; &quot;c&quot;'],
    ["it's <x/>", 'it&apos;s &lt;x/&gt;'],
    ['bell\u0007 and escape\u001b[31m', 'bell and escape[31m'],
    ['tab\tnewline\nreturn\r kept', 'tab\tnewline\nreturn\r kept'],
    ['\uFFFE\uFFFF', ''],
  ])('%j → %j', (text, escaped) => {
    expect(xmlText(text)).toBe(escaped);
  });
});
