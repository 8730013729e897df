// Reads what a CLI is given (an HTTP answer, a file) with a size cap, so an endless body or `/dev/zero` ends in one
// line instead of eating the machine's memory.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readBoundedBody } from '../spec/http/body-reader.ts';

/** The cap on what a CLI reads of one file or one answer (a PEM bundle, a coverage report, one recorded entry). */
export const MAX_CLI_INPUT_BYTES = 16 * 1024 * 1024;

/** Thrown when the input is larger than the cap; the message says the cap. */
export class TooLargeError extends Error {}

const mib = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MiB`;

/**
 * The body of `response` as text, or TooLargeError once more than `maxBytes` arrived (the rest is never read).
 * @example const text = await readCappedBody(await fetch(url), 16 * 1024 * 1024);
 */
export async function readCappedBody(response: Response, maxBytes: number): Promise<string> {
  const read = await readBoundedBody(response, maxBytes);
  if (read.tooLarge) throw new TooLargeError(`the answer is larger than ${mib(maxBytes)}`);
  const { bytes } = read;
  return bytes === null ? '' : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * A file's text, read in chunks so a device or a pipe that never ends (`/dev/zero`) stops at `maxBytes` with
 * TooLargeError. A directory or an unreadable file throws the usual fs error.
 * @example const text = readCappedFile('report.json', 256 * 1024 * 1024);
 */
export function readCappedFile(file: string, maxBytes: number): string {
  const descriptor = openSync(file, 'r');
  try {
    if (fstatSync(descriptor).size > maxBytes) throw new TooLargeError(`it is larger than ${mib(maxBytes)}`);
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - size));
      const read = readSync(descriptor, chunk, 0, chunk.length, null);
      if (read === 0) break;
      size += read;
      if (size > maxBytes) throw new TooLargeError(`it is larger than ${mib(maxBytes)}`);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
}
