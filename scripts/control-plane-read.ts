// How the CLIs that read a running fake (coverage, pact export, spec-change) fetch one control-plane document: the base
// URL checked (no user:password@, which would end up printed), the control token sent from MOCK_CONTROL_TOKEN, the
// answer read with a size cap, and every failure one line naming what to fix.
// Also the command line they share: `--base-url` and `--timeout`, parsed and checked the same way.
import type { ParseArgsOptionsConfig } from 'node:util';
import { createRedactor } from '../verifier-client/redaction.ts';
import { readCappedBody, TooLargeError } from '../verifier-client/bounded-read.ts';
import { cliError } from './cli-error.ts';
import { parseCommandLine, type Parsed } from './command-line.ts';
import { guardWrites } from '../verifier-client/terminal-text.ts';

/** The environment variable the fake's `--control-token` also reads; a flag would show in `ps`. */
const controlTokenVariable = 'MOCK_CONTROL_TOKEN';

/** The flags of every command that reads a running fake. */
const fakeFlags = { 'base-url': { type: 'string' }, timeout: { type: 'string' } } as const;

/**
 * The prologue of a command that reads a running fake: stdout and stderr guarded (server text reaches both, never with
 * its control characters raw), the command line parsed with `--base-url` and `--timeout` beside the command's own
 * flags, and the base URL required and checked. `--timeout` is checked by timeoutFlag, where the command reaches it.
 * @example const { values, baseUrl } = fakeCommandLine({ min: { type: 'string' } }, { usage, help }, args);
 */
export function fakeCommandLine<const T extends ParseArgsOptionsConfig>(
  options: T,
  text: { usage: string; help: string },
  args: string[],
): { values: Parsed<T & typeof fakeFlags>; baseUrl: string } {
  guardWrites(process.stdout);
  guardWrites(process.stderr);
  // The options object is T and the two flags; parseArgs reads it whole, so its values are typed from both.
  const values = parseCommandLine({ ...fakeFlags, ...options }, text, args) as Parsed<T & typeof fakeFlags>;
  // A generic T leaves Parsed unresolved here; the flag is fakeFlags' own, a string when given.
  const raw = (values as { 'base-url'?: string })['base-url'];
  if (raw === undefined)
    cliError(`--base-url is required (the running fake, e.g. http://127.0.0.1:4010); ${text.usage}`);
  return { values, baseUrl: fakeBaseUrl('--base-url', raw) };
}

/**
 * `--timeout <ms>` in milliseconds (default 5000); one line and exit 2 when it is not a whole number up to 7 digits.
 * @example timeoutFlag('250') // 250
 */
export function timeoutFlag(text = '5000'): number {
  if (!/^[1-9]\d{0,6}$/.test(text)) cliError(`--timeout must be a whole number of milliseconds, got "${text}"`);
  return Number(text);
}

/**
 * The fake's base URL from a flag's text, without a trailing slash; one line and exit 2 when it is not an http(s) URL
 * or carries credentials.
 * @example fakeBaseUrl('--base-url', 'http://127.0.0.1:4010/') // 'http://127.0.0.1:4010'
 */
export function fakeBaseUrl(flag: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    cliError(`${flag} is not a URL; give the fake's address, e.g. http://127.0.0.1:4010`);
  }
  if (url.username || url.password)
    cliError(
      `${flag} must not carry a user or password (they would be printed); the fake needs none, and a --control-token goes in ${controlTokenVariable}`,
    );
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    cliError(`${flag} must be http or https, got ${url.protocol}`);
  return url.href.replace(/\/+$/, '');
}

/** The control token from the environment; from here on everything printed is redacted of it. */
function controlToken(): string | undefined {
  const token = process.env[controlTokenVariable]?.trim() || undefined;
  if (token !== undefined) {
    const redact = createRedactor(token);
    guardWrites(process.stdout, redact);
    guardWrites(process.stderr, redact);
  }
  return token;
}

function failureReason(error: unknown, timeoutMs: number): string {
  return error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')
    ? `no answer within ${timeoutMs} ms`
    : error instanceof Error && error.cause instanceof Error
      ? error.cause.message
      : error instanceof Error
        ? error.message
        : String(error);
}

/**
 * GETs `path` of the fake at `baseUrl` and hands over its body as it arrives: no more than `timeoutMs` may pass before
 * the answer starts or between two chunks, however long the whole body takes. Any failure is one line and exit 2.
 * @example for await (const chunk of await streamControlPlane(url, '/__mock/journal', { timeoutMs: 10_000 })) parse(chunk);
 */
export async function streamControlPlane(
  baseUrl: string,
  path: string,
  limits: { timeoutMs: number },
): Promise<AsyncIterable<Uint8Array>> {
  const url = `${baseUrl}${path}`;
  const token = controlToken();
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  const fail = (error: unknown): never =>
    cliError(
      `cannot read ${url} (${failureReason(error, limits.timeoutMs)}); is the fake running (npm start), and is the URL right?`,
    );
  const answer = await fetch(url, {
    headers: token === undefined ? {} : { 'x-mock-control-token': token },
    signal: controller.signal,
  }).catch((error: unknown) => {
    clearTimeout(timer);
    return fail(error);
  });
  checkStatus(answer, url, baseUrl, token);
  const reader = answer.body?.getReader();
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          if (!reader) return;
          const { done, value } = await reader.read();
          if (done) return;
          clearTimeout(timer);
          timer = setTimeout(() => controller.abort(), limits.timeoutMs);
          yield value;
        }
      } catch (error) {
        fail(error);
      } finally {
        clearTimeout(timer);
        await reader?.cancel().catch(() => {});
      }
    },
  };
}

function checkStatus(answer: Response, url: string, baseUrl: string, token: string | undefined): void {
  if (answer.status === 403 && token === undefined)
    cliError(`GET ${url} answered 403; if the fake runs with --control-token, export ${controlTokenVariable}=<it>`);
  if (answer.status !== 200)
    cliError(`GET ${url} answered ${answer.status}; is ${baseUrl} the kit's fake backend (npm start)?`);
}

/**
 * GETs `path` of the fake at `baseUrl` and parses its JSON, reading at most `maxBytes`; any failure is one line and exit 2.
 * @example const body = await readControlPlane('http://127.0.0.1:4010', '/__mock/coverage', { timeoutMs: 5000, maxBytes: 16 << 20 });
 */
export async function readControlPlane(
  baseUrl: string,
  path: string,
  limits: { timeoutMs: number; maxBytes: number },
): Promise<unknown> {
  const url = `${baseUrl}${path}`;
  const token = controlToken();
  let text: string;
  try {
    const answer = await fetch(url, {
      headers: token === undefined ? {} : { 'x-mock-control-token': token },
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
    checkStatus(answer, url, baseUrl, token);
    text = await readCappedBody(answer, limits.maxBytes);
  } catch (error) {
    if (error instanceof TooLargeError)
      cliError(`GET ${url}: ${error.message}, more than a fake's answer can be; stopped reading`);
    cliError(
      `cannot read ${url} (${failureReason(error, limits.timeoutMs)}); is the fake running (npm start), and is the URL right?`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    cliError(`GET ${url} did not answer JSON; is ${baseUrl} the kit's fake backend (npm start)?`);
  }
}
