// Parses a JSON document of any size in bounded memory, handing over only the items a caller asks for (each journal
// entry, each report exchange) one at a time: a journal or a report is replayed without ever being held whole. The
// tokenizer and the parser are @streamparser/json's; this module adds the bounds that make hostile input harmless.
import { closeSync, openSync, readSync } from 'node:fs';
import { Tokenizer, TokenizerError, TokenParser, TokenParserError, TokenType } from '@streamparser/json';
import type { JsonValue } from '../spec/index.ts';

/** What the document holds at its top level, learned as it streams by: each member's kind, and whether it is an object. */
interface TopLevel {
  isObject: boolean;
  kinds: Map<string, 'array' | 'object' | 'scalar'>;
}

/** One item found at one of the requested paths; `keys` is where it sits (`['checks', 3, 'exchanges', 0]`). */
export interface JsonItem {
  value: JsonValue;
  keys: ReadonlyArray<string | number | undefined>;
}

/** Thrown when the text is not JSON or breaks a bound; the message is one line, without the input's bytes. */
export class JsonStreamError extends Error {}

export interface JsonItemStreamOptions {
  /** JSONPath-like selectors (`$.entries.*`) of the items wanted; everything else is parsed and dropped at once. */
  paths: string[];
  onItem: (item: JsonItem) => void;
  /**
   * How many containers enclose each wanted item (2 for `$.entries.*`, 4 for `$.checks.*.exchanges.*`): bytes read
   * deeper than that belong to an item the parser is building, and are bounded by `maxBytes`.
   */
  itemDepth: number;
  /**
   * The most bytes one item may take, and the most read without a token completing (one string, or endless spaces).
   * Everything outside the items is dropped as soon as it is parsed, so these two bound the memory.
   */
  maxBytes: number;
  /** The deepest nesting allowed; the parser keeps one frame per level, so depth is memory too. */
  maxDepth: number;
}

/** A document being parsed: `write` each chunk as it arrives, then `end`. */
export interface JsonItemStream {
  write(chunk: Uint8Array): void;
  end(): void;
  readonly topLevel: TopLevel;
}

const mib = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MiB`;

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/**
 * Follows the tokens to learn the top level's shape and to bound nesting; the parser itself keeps no such view
 * when `keepStack` is off, which is what keeps its memory flat.
 */
function createShapeWatch(maxDepth: number): {
  see: (token: TokenType, value: unknown) => void;
  topLevel: TopLevel;
  depth: () => number;
} {
  const topLevel: TopLevel = { isObject: false, kinds: new Map() };
  let depth = 0;
  let seenRoot = false;
  let lastString: string | undefined;
  let pendingKey: string | undefined;
  const see = (token: TokenType, value: unknown): void => {
    if (depth === 1 && pendingKey !== undefined && token !== TokenType.COLON) {
      const kind = token === TokenType.LEFT_BRACKET ? 'array' : token === TokenType.LEFT_BRACE ? 'object' : 'scalar';
      topLevel.kinds.set(pendingKey, kind);
      pendingKey = undefined;
    }
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      if (!seenRoot) topLevel.isObject = token === TokenType.LEFT_BRACE;
      seenRoot = true;
      depth += 1;
      if (depth > maxDepth) throw new JsonStreamError(`it is nested deeper than ${maxDepth} levels`);
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) depth -= 1;
    else if (token === TokenType.STRING) lastString = typeof value === 'string' ? value : undefined;
    else if (token === TokenType.COLON && depth === 1) pendingKey = lastString;
    if (depth === 0) seenRoot = true;
  };
  return { see, topLevel, depth: () => depth };
}

/**
 * A streaming parse that calls `onItem` for each value at `paths` and forgets everything else as soon as it is parsed,
 * so memory stays at about one item plus the nesting above it, whatever the document's size.
 * @example
 * const stream = createJsonItemStream({ paths: ['$.entries.*'], onItem: ({ value }) => seen.push(value), itemDepth: 2, maxBytes: 16 << 20, maxDepth: 64 });
 * stream.write(chunk); stream.end();
 */
export function createJsonItemStream(options: JsonItemStreamOptions): JsonItemStream {
  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: options.paths, keepStack: false });
  const shape = createShapeWatch(options.maxDepth);
  // Byte offsets: of everything written, of the last token, and of the item being built (undefined between items).
  let written = 0;
  let lastToken = 0;
  let itemStart: number | undefined;
  let failure: unknown;
  tokenizer.onToken = (info) => {
    lastToken = info.offset;
    shape.see(info.token, info.value);
    if (shape.depth() <= options.itemDepth) itemStart = undefined;
    else itemStart ??= info.offset;
    parser.write(info);
  };
  // Both halves report errors through these hooks (the default would throw from inside the other's callback).
  tokenizer.onError = (error) => {
    failure ??= error;
  };
  parser.onError = (error) => {
    failure ??= error;
  };
  parser.onValue = ({ value, stack, key }) => {
    options.onItem({ value: value as JsonValue, keys: [...stack.slice(1).map((frame) => frame.key), key] });
  };
  const rethrow = (): void => {
    if (failure === undefined) return;
    const error = failure;
    failure = undefined;
    // The parser's own complaints are about the text; anything else (a caller's onItem) goes on as it was thrown.
    if (error instanceof TokenizerError || error instanceof TokenParserError)
      throw new JsonStreamError(`it is not JSON (${oneLine(error)})`);
    throw error;
  };
  const checkBounds = (): void => {
    if (written - lastToken > options.maxBytes)
      throw new JsonStreamError(
        `it holds more than ${mib(options.maxBytes)} without one complete JSON value (a value that large, or endless filler)`,
      );
    if (itemStart !== undefined && written - itemStart > options.maxBytes)
      throw new JsonStreamError(`one of its entries is larger than ${mib(options.maxBytes)}`);
  };
  return {
    topLevel: shape.topLevel,
    write(chunk) {
      // Pieces of at most 1 MiB, so a bound is noticed within 1 MiB of being passed whatever the reader's chunk size.
      for (let at = 0; at < chunk.byteLength; at += 1024 * 1024) {
        const piece = chunk.subarray(at, at + 1024 * 1024);
        try {
          tokenizer.write(piece);
        } catch (error) {
          failure ??= error;
        }
        written += piece.byteLength;
        rethrow();
        checkBounds();
      }
    },
    end() {
      if (!tokenizer.isEnded)
        try {
          tokenizer.end();
        } catch (error) {
          failure ??= error;
        }
      rethrow();
      if (!parser.isEnded) throw new JsonStreamError('it is not JSON (it ends before the document does)');
    },
  };
}

const CHUNK_BYTES = 1024 * 1024;

/**
 * Feeds a file to `stream` in 1 MiB chunks and ends it; a device that never ends (`/dev/zero`) is stopped by the
 * stream's bounds, so no file is held whole.
 * @example feedFile('report.json', createJsonItemStream({ paths: ['$.checks.*'], itemDepth: 2, onItem }));
 */
export function feedFile(file: string, stream: JsonItemStream): void {
  const descriptor = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const read = readSync(descriptor, chunk, 0, chunk.length, null);
      if (read === 0) break;
      stream.write(chunk.subarray(0, read));
    }
    stream.end();
  } finally {
    closeSync(descriptor);
  }
}
