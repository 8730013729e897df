// What a job summary may carry of a server's text: nothing a Markdown renderer reads as syntax or HTML, on one line.
import { describe, expect, it } from 'vitest';
import { markdownText } from './markdown-text.ts';

describe('markdownText', () => {
  it.each([
    ['plain words', 'plain words'],
    ['a | b', 'a \\| b'],
    ['![x](https://e.example/p.png)', '\\!\\[x\\]\\(https\\://e\\.example/p\\.png\\)'],
    ['<img src=x onerror=alert(1)>', '&lt;img src\\=x onerror\\=alert\\(1\\)&gt;'],
    ['&lt; stays text', '&amp;lt; stays text'],
    ['**bold** _em_ ~~del~~ `code`', '\\*\\*bold\\*\\* \\_em\\_ \\~\\~del\\~\\~ \\`code\\`'],
    ['@team #12 :tada: $x$ www.e.example', '\\@team \\#12 \\:tada\\: \\$x\\$ www\\.e\\.example'],
    ['back\\slash', 'back\\\\slash'],
    ['two\nlines\r\n\tand  spaces', 'two lines and spaces'],
    ['escape\u001b[31m red', 'escape\\\\x1b\\[31m red'],
  ])('%j → %j', (text, escaped) => {
    expect(markdownText(text)).toBe(escaped);
  });

  it('cuts a long text at the given length, with an ellipsis', () => {
    expect(markdownText('a'.repeat(50), 10)).toBe(`${'a'.repeat(9)}…`);
  });
});
