// Keeps bytes a server wrote from steering the user's terminal: every CLI that prints server text (contract, diff,
// coverage, spec-change) sends its stdout and stderr through here, so no escape sequence reaches the terminal raw.

/**
 * C0 controls but newline and tab, DEL, C1 controls (U+0080–U+009F: 8-bit CSI, OSC, ST), and the Unicode bidi
 * controls that reorder what a line seems to say (LRM/RLM, LRE…RLO, LRI…PDI).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(character: string): string {
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text with every terminal control character written out as a visible escape (`ESC` → `\x1b`, CR → `\x0d`); newlines and
 * tabs stay as they are. The kit prints no colours of its own, so nothing legitimate is lost.
 * @example terminalSafe('\u001b]0;pwned\u0007ok') // '\\x1b]0;pwned\\x07ok'
 */
export function terminalSafe(text: string): string {
  unsafe.lastIndex = 0;
  return unsafe.test(text) ? text.replace(unsafe, visible) : text;
}

/**
 * Routes every later write to `stream` through `transform` (e.g. the run's redactor), then `terminalSafe`, whoever
 * writes: the report, a library, an error printed on the way out.
 * @example guardWrites(process.stdout); guardWrites(process.stderr, redact);
 */
export function guardWrites(stream: NodeJS.WriteStream, transform: (text: string) => string = (text) => text): void {
  const write = stream.write.bind(stream);
  const guarded = (
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | ((error?: Error | null) => void),
    callback?: (error?: Error | null) => void,
  ): boolean => {
    const text = terminalSafe(transform(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')));
    return typeof encoding === 'function' ? write(text, encoding) : write(text, encoding ?? 'utf8', callback);
  };
  stream.write = guarded as typeof stream.write;
}
