// The recording file of `proxy --record FILE`: the exchanges the app made through the proxy, credentials removed, in the
// contract report's exchange shape, so `spec-change --report FILE` replays it and `serve --from-recording FILE` starts
// from it. The file is created once, under a fresh name in its folder (exclusively: a planted file or symlink is never
// opened) and renamed into place; from then on each exchange is written where the last one ended, with the closing
// lines after it, so an exchange costs its own bytes whatever the file already holds, and one past the limit costs
// the few bytes of the `dropped` count. Between two exchanges the file is whole JSON.
import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RecordedExchange } from '../verifier-client/check-record.ts';
import { describeServerText, redactedMark, type Redact } from '../verifier-client/redaction.ts';
import { recordedHeaderValue, recordedTarget } from './secrets.ts';

/** The `format` member every recording carries. */
export const RECORDING_FORMAT = 'agent-registry-kit-recording';
/** Exchanges a recording keeps by default; later ones are counted in `dropped`. */
const DEFAULT_RECORD_LIMIT = 1000;
/** Characters of a body kept (after redaction); a longer one is cut and marked, and replays skip it. */
const RECORDED_BODY_LIMIT = 65_536;

/** The whole file (`dropped` is written after the exchanges, so it can change without rewriting them). */
interface Recording {
  format: typeof RECORDING_FORMAT;
  version: 1;
  /** The upstream's URL without credentials; each exchange's request URL starts with it. */
  baseUrl: string;
  startedAt: string;
  /** Most exchanges kept. */
  limit: number;
  /** Exchanges seen after the limit was reached, not kept. */
  dropped: number;
  exchanges: RecordedExchange[];
}

/** One exchange as the proxy saw it, before redaction. */
export interface ExchangeToRecord {
  operationId: string | null;
  method: string;
  /** Path and query as the app sent them. */
  target: string;
  requestHeaders: Readonly<Record<string, string | string[] | undefined>>;
  requestBody: string | undefined;
  status: number | undefined;
  responseHeaders: Readonly<Record<string, string | string[] | undefined>>;
  responseBody: string | undefined;
  error: string | undefined;
  durationMs: number;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

function recordedHeaders(headers: ExchangeToRecord['requestHeaders'], redact: Redact): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    // A credential header says that one was sent, never what it was.
    kept[name] = redact(recordedHeaderValue(name, Array.isArray(value) ? value.join(', ') : value, redactedMark));
  }
  return kept;
}

/**
 * Collects exchanges into a recording file.
 * @example const writer = new RecordingWriter('staging.json', 'https://staging.example.com'); writer.add(e, redact);
 */
export class RecordingWriter {
  readonly #file: string;
  readonly #baseUrl: string;
  readonly #head: string;
  readonly #limit: number;
  readonly #onError: (error: unknown) => void;
  #kept = 0;
  #dropped = 0;
  #descriptor: number | undefined;
  /** Byte offset where the closing lines begin: the next exchange is written there. */
  #end = 0;

  /** `onError` hears of a write that failed (a full disk): the proxy goes on, and says so. */
  constructor(
    file: string,
    baseUrl: string,
    options: { limit?: number; now?: Date; onError?: (error: unknown) => void } = {},
  ) {
    const { limit = DEFAULT_RECORD_LIMIT, now = new Date() } = options;
    this.#file = file;
    this.#baseUrl = baseUrl;
    this.#limit = limit;
    this.#onError = options.onError ?? (() => {});
    const members: Omit<Recording, 'dropped' | 'exchanges'> = {
      format: RECORDING_FORMAT,
      version: 1,
      baseUrl,
      startedAt: now.toISOString(),
      limit,
    };
    this.#head = `${JSON.stringify(members, null, 2).replace(/\n}$/, ',')}\n  "exchanges": [`;
  }

  /** Keeps the exchange, every credential redacted (headers, URL, bodies, error), and writes it at once. */
  add(exchange: ExchangeToRecord, redact: Redact): void {
    try {
      if (this.#kept >= this.#limit) {
        this.#dropped += 1;
        this.#write('');
        return;
      }
      const entry = recordedExchange(
        exchange,
        redact,
        redact(this.#baseUrl + recordedTarget(exchange.target, redactedMark)),
      );
      // Indented as a whole-file JSON.stringify(…, null, 2) would write it: a reader of the file sees the same text.
      const text = JSON.stringify(entry, null, 2).replaceAll('\n', '\n    ');
      this.#write(`${this.#kept === 0 ? '' : ','}\n    ${text}`);
      this.#kept += 1;
    } catch (error) {
      this.#onError(error);
    }
  }

  /** Creates the file if it is not yet (the proxy calls it before it listens, so a bad path shows at once). */
  flush(): void {
    this.#open();
  }

  /** Writes `entry` where the closing lines began, then the closing lines: one write, so the file stays whole JSON. */
  #write(entry: string): void {
    const descriptor = this.#open();
    const written = Buffer.byteLength(entry);
    const bytes = Buffer.from(`${entry}${this.#tail()}`);
    writeSync(descriptor, bytes, 0, bytes.length, this.#end);
    this.#end += written;
    // The closing lines only grow (the count does), so this cuts nothing; it keeps the file exactly what was written.
    ftruncateSync(descriptor, this.#end + bytes.length - written);
  }

  #tail(): string {
    return `\n  ],\n  "dropped": ${this.#dropped}\n}\n`;
  }

  /**
   * The file's descriptor, creating the file on first use: exclusively (O_EXCL, mode 0600) under a random name beside
   * it, then renamed over it, so neither a file nor a symlink planted under a guessable name is ever opened or followed,
   * and an existing file of that name is replaced, not written through.
   */
  #open(): number {
    if (this.#descriptor !== undefined) return this.#descriptor;
    const temporary = join(dirname(this.#file), `.${basename(this.#file)}.${randomBytes(12).toString('hex')}.tmp`);
    const descriptor = openSync(temporary, 'wx', 0o600);
    try {
      const bytes = Buffer.from(`${this.#head}${this.#tail()}`);
      writeSync(descriptor, bytes, 0, bytes.length, 0);
      renameSync(temporary, this.#file);
    } catch (error) {
      closeSync(descriptor);
      unlinkSync(temporary);
      throw error;
    }
    this.#end = Buffer.byteLength(this.#head);
    this.#descriptor = descriptor;
    return descriptor;
  }
}

/** One exchange in the report's shape, every credential redacted. */
function recordedExchange(exchange: ExchangeToRecord, redact: Redact, url: string): RecordedExchange {
  return {
    operationId: exchange.operationId ?? '',
    request: {
      method: exchange.method,
      url,
      headers: recordedHeaders(exchange.requestHeaders, redact),
      body:
        exchange.requestBody === undefined
          ? undefined
          : describeServerText(redact, exchange.requestBody, RECORDED_BODY_LIMIT),
    },
    response:
      exchange.status === undefined
        ? undefined
        : {
            status: exchange.status,
            headers: recordedHeaders(exchange.responseHeaders, redact),
            body: describeServerText(redact, exchange.responseBody ?? '', RECORDED_BODY_LIMIT),
          },
    error: exchange.error === undefined ? undefined : redact(exchange.error),
    durationMs: exchange.durationMs,
  };
}
