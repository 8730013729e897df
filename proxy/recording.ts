// The recording file of `proxy --record FILE`: the exchanges the app made through the proxy, credentials removed, in the
// contract report's exchange shape, so `spec-change --report FILE` replays it and `serve --from-recording FILE` starts
// from it. Written atomically (a temp file renamed over it) a moment after each exchange and when the proxy stops.
import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import type { RecordedExchange } from '../client/check-record.ts';
import { describeServerText, redactedMark, type Redact } from '../client/redaction.ts';
import { CREDENTIAL_HEADERS } from './secrets.ts';

/** The `format` member every recording carries. */
export const RECORDING_FORMAT = 'agent-registry-kit-recording';
/** Exchanges a recording keeps by default; later ones are counted in `dropped`. */
const DEFAULT_RECORD_LIMIT = 1000;
/** Characters of a body kept (after redaction); a longer one is cut and marked, and replays skip it. */
const RECORDED_BODY_LIMIT = 65_536;

/** The whole file. */
export interface Recording {
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
    kept[name] = CREDENTIAL_HEADERS.has(name) ? redactedMark : redact(Array.isArray(value) ? value.join(', ') : value);
  }
  return kept;
}

/**
 * Collects exchanges into a recording file.
 * @example const writer = new RecordingWriter('staging.json', 'https://staging.example.com'); writer.add(e, redact);
 */
export class RecordingWriter {
  readonly #file: string;
  readonly #recording: Recording;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;

  /** `onError` hears of a write that failed in the background (a full disk): the proxy goes on, and says so. */
  constructor(
    file: string,
    baseUrl: string,
    options: { limit?: number; now?: Date; onError?: (error: unknown) => void } = {},
  ) {
    const { limit = DEFAULT_RECORD_LIMIT, now = new Date() } = options;
    this.#file = file;
    this.#onError = options.onError ?? (() => {});
    this.#recording = {
      format: RECORDING_FORMAT,
      version: 1,
      baseUrl,
      startedAt: now.toISOString(),
      limit,
      dropped: 0,
      exchanges: [],
    };
  }

  /** Keeps the exchange, every credential redacted (headers, URL, bodies, error), and schedules a write. */
  add(exchange: ExchangeToRecord, redact: Redact): void {
    const recording = this.#recording;
    if (recording.exchanges.length >= recording.limit) recording.dropped += 1;
    else
      recording.exchanges.push({
        operationId: exchange.operationId ?? '',
        request: {
          method: exchange.method,
          url: redact(recording.baseUrl + exchange.target),
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
      });
    this.#timer ??= setTimeout(() => {
      try {
        this.flush();
      } catch (error) {
        this.#onError(error);
      }
    }, 200);
  }

  /** Writes the file now (temp file, then rename: a reader never sees half of it); only the owner may read it. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const temporary = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.#recording, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.#file);
  }
}
