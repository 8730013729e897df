// The text of an upstream answer as the checker reads it: decoded from its Content-Encoding (gzip, br, deflate) with a
// bound on the decoded size. A compressed body is small on the wire and may inflate a thousandfold, so the bound is
// on the output: node's zlib inflates it in chunks on its thread pool and stops at the first chunk past `maxBytes`.
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';

/** The decoded text, or `tooLarge` once the decoded body is known to be longer than the bound. */
export type DecodedBody = { tooLarge: false; text: string } | { tooLarge: true };

type Decoder = (body: Buffer, options: ZlibOptions) => Promise<Buffer>;

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/**
 * `body` decoded by `encoding` (none, or one the proxy does not know: as received), at most `maxBytes` of it.
 * A body the decoder refuses (not gzip after all) is left as received, so the checker reports it for what it is.
 * @example await decodedBody(gzipped, 'gzip', 8 * 1_048_576) // { tooLarge: false, text: '{"agentId":…}' }
 */
export async function decodedBody(body: Buffer, encoding: string | undefined, maxBytes: number): Promise<DecodedBody> {
  const decode = DECODERS[encoding?.trim().toLowerCase() ?? ''];
  if (decode === undefined) return { tooLarge: false, text: body.toString('utf8') };
  try {
    return { tooLarge: false, text: (await decode(body, { maxOutputLength: maxBytes })).toString('utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { tooLarge: true };
    return { tooLarge: false, text: body.toString('utf8') };
  }
}
