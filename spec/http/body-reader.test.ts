// The one bounded body reader: whole bodies come back byte for byte, a body past the cap is refused from its
// Content-Length or while it streams, and what is past the cap is never pulled.
import { describe, expect, test } from 'vitest';
import { readBoundedBody } from './body-reader.ts';

/** A stream of `count` chunks of `size` bytes; `pulled` counts the chunks read from it. */
function chunked(count: number, size: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === count) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(sent++));
    },
  });
  return { stream, pulled: () => sent };
}

describe('readBoundedBody', () => {
  test('returns the whole body up to the cap, and null for a message without one', async () => {
    expect(await readBoundedBody(new Response('héllo'), 6)).toEqual({
      tooLarge: false,
      bytes: new TextEncoder().encode('héllo'),
    });
    expect(await readBoundedBody(new Response(null, { status: 204 }), 6)).toEqual({ tooLarge: false, bytes: null });
  });

  test('refuses a declared Content-Length over the cap without reading the body', async () => {
    const { stream, pulled } = chunked(4, 10);
    const message = { body: stream, headers: new Headers({ 'content-length': '40' }) };
    expect(await readBoundedBody(message, 39)).toEqual({ tooLarge: true });
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  test('stops at the first chunk past the cap when no length is declared', async () => {
    const { stream, pulled } = chunked(1000, 10);
    expect(await readBoundedBody({ body: stream, headers: new Headers() }, 25)).toEqual({ tooLarge: true });
    expect(pulled()).toBeLessThan(10);
  });
});
