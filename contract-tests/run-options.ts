// The options of one contract run as the suite's runner (contract-tests/suite-runner.ts) hands them to the suite
// (vitest `provide`), with their defaults.
import type { CheckRecord } from '../verifier-client/check-record.ts';

/** How the suite is pointed at a server and how far it may go. */
export interface RunOptions {
  /** The `{base_url}`, without `/v1` and without a trailing slash. */
  baseUrl: string;
  /** The bearer token, normalized (`normalizeToken`): exactly what the Authorization header carries; never printed. */
  token: string;
  /** Cap on POST requests (every POST counts, generated cases and shrinking included). */
  maxWrites: number;
  /** Send only GETs, and POSTs that two independent guards make a correct server reject (see check-plan.ts). */
  readOnly: boolean;
  /** An existing agent (API_AGENT_ID), used for retrieve and execute when nothing may be deployed. */
  agentId: string | undefined;
  /** Failures of rules that come from an assumption of the spec become warnings. */
  seedOnly: boolean;
  /** Generated cases per property. */
  runs: number;
  /** fast-check seed of the generated cases. */
  seed: number;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  /** Replays one generated failure: `<property>:<fast-check path>`, as printed with the failure. */
  replay: string | undefined;
}

/** Defaults the CLI starts from; maxWrites is derived from the plan when not given (see check-plan.ts). */
export const defaultRunOptions = {
  runs: 25,
  timeoutMs: 10_000,
} as const;

declare module 'vitest' {
  interface ProvidedContext {
    contractOptions: RunOptions;
  }
  interface TaskMeta {
    contract?: CheckRecord;
  }
}

/** A mistake in API_BASE_URL or API_TOKEN; its message is the one line the CLI prints, and never holds a secret. */
export class RunOptionError extends Error {}

/**
 * The token exactly as the Authorization header will carry it: surrounding whitespace (a token file's CRLF, a BOM, a
 * pasted space) trimmed, since fetch trims a header value and the redactor must hide what is really sent. A token that
 * still holds a space, a control or a non-ASCII character cannot be a bearer token, so it is refused, not guessed at.
 * @example normalizeToken('  eyJ.eyJ.sig\r\n') // 'eyJ.eyJ.sig'
 */
export function normalizeToken(raw: string | undefined): string {
  if (raw === undefined || raw === '')
    throw new RunOptionError(
      'API_TOKEN is not set; export API_TOKEN=<a bearer token the server accepts> (for the fake backend: npm run token)',
    );
  const token = raw.replace(/^[\s\uFEFF]+|[\s\uFEFF]+$/g, '');
  if (token === '') throw new RunOptionError('API_TOKEN is only whitespace; set it to the bearer token itself');
  if (!/^[\x21-\x7e]+$/.test(token))
    throw new RunOptionError(
      'API_TOKEN holds a space, a control or a non-ASCII character; set it to the token alone, on one line, without "Bearer "',
    );
  return token;
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/**
 * Reads API_BASE_URL: an absolute http(s) URL without credentials, query or fragment, to which the suite appends
 * `/v1/...`. Credentials are refused, not stripped (the suite authenticates with API_TOKEN only, and a URL is printed in
 * every report); no message repeats any part of the URL but its scheme, host, port and path. Plain http to a host that
 * is not loopback is allowed with a warning, since the token then crosses the network in clear text.
 * @example parseBaseUrl('http://127.0.0.1:4010/') // { baseUrl: 'http://127.0.0.1:4010', warnings: [] }
 */
export function parseBaseUrl(raw: string | undefined): { baseUrl: string; warnings: string[] } {
  if (raw === undefined || raw.trim() === '')
    throw new RunOptionError(
      'API_BASE_URL is not set; export API_BASE_URL=<the server base URL, without /v1> (e.g. http://127.0.0.1:4010)',
    );
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new RunOptionError(
      'API_BASE_URL is not a URL; set it to e.g. http://127.0.0.1:4010 or https://api.example.com',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RunOptionError('API_BASE_URL must start with http:// or https://, e.g. https://api.example.com');
  const shown = `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
  if (url.username !== '' || url.password !== '')
    throw new RunOptionError(
      `API_BASE_URL holds a user name or password; remove them (the suite authenticates with API_TOKEN only): set it to ${shown}`,
    );
  if (url.href.includes('?') || url.href.includes('#'))
    throw new RunOptionError(
      `API_BASE_URL must not have a query (?...) or fragment (#...), since the suite appends /v1/... to it: set it to ${shown}`,
    );
  if (/\/v1$/.test(shown))
    throw new RunOptionError(
      `API_BASE_URL must not end with /v1 (the suite adds it); set it to ${shown.replace(/\/v1$/, '')}`,
    );
  const warnings =
    url.protocol === 'http:' && !isLoopback(url.hostname)
      ? [
          `warning: API_BASE_URL is plain http:// to ${url.host}, which is not loopback: API_TOKEN crosses the network in clear text; use https://`,
        ]
      : [];
  return { baseUrl: shown, warnings };
}
