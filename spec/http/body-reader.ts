// Reads the body of a fetch Request or Response with a byte cap, so an endless or oversized body costs at most the cap.
// The one bounded body reader of the kit: verifier-client/ reads answers with it (verifier-client/bounded-read.ts, for the CLIs and the
// contract client), the msw handlers read request bodies with it (mocks/adapters/msw/create-handlers.ts). It lives in spec/
// because that is the one folder both may import (verifier-client/ never imports mocks/, mocks/ builds on spec/ alone); like
// the rest of spec/ it imports nothing, and it uses only web streams, so it runs in Node and in a browser alike. It is
// not part of spec/index.ts, so not of the package's ./spec entry: the two readers import this file directly.

/** A fetch Request or Response: what the reader needs of either. */
export interface BodyMessage {
  readonly body: ReadableStream<Uint8Array> | null;
  readonly headers: { get(name: string): string | null };
}

/** The body's bytes (null when the message has none), or `tooLarge` once it is known to be longer than the cap. */
export type BoundedBody = { tooLarge: false; bytes: Uint8Array | null } | { tooLarge: true };

/**
 * Reads at most `maxBytes` of `message`'s body. Larger is known from Content-Length (then nothing is read) or while
 * it arrives (then the rest is cancelled, never read). A failure of the stream (an abort, a reset) is thrown.
 * @example const read = await readBoundedBody(request, 1_048_576); if (read.tooLarge) return tooLarge();
 */
export async function readBoundedBody(message: BodyMessage, maxBytes: number): Promise<BoundedBody> {
  const stream = message.body;
  if (!stream) return { tooLarge: false, bytes: null };
  if (Number(message.headers.get('content-length') ?? '0') > maxBytes) {
    void stream.cancel().catch(() => {});
    return { tooLarge: true };
  }
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { tooLarge: false, bytes };
}
