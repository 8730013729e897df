// The credentials the proxy has seen (bearer tokens, cookie values), each hidden by the contract suite's one redactor in
// every form it knows, wherever the proxy writes text: violation lines, the control plane, recordings.
import { createRedactor, type Redact } from '../client/redaction.ts';

/** Distinct credentials remembered; the oldest are forgotten past it (a redactor costs a few hundred strings). */
const MAX_REMEMBERED = 32;

/** Header names whose whole value is a credential: never forwarded into a record, whatever the redactor finds. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);

/** The credentials of one request: the bearer token (or any Authorization value) and each cookie's value. */
export function credentialsOf(headers: Readonly<Record<string, string | string[] | undefined>>): string[] {
  const found: string[] = [];
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const token = /^\s*(?:bearer|basic|token)\s+(.+?)\s*$/i.exec(authorization)?.[1] ?? authorization.trim();
    if (token !== '') found.push(token);
  }
  const cookies = [headers.cookie, headers['set-cookie']].flat();
  for (const cookie of cookies) {
    if (typeof cookie !== 'string') continue;
    for (const pair of cookie.split(';')) {
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      // Attributes of Set-Cookie (Path=/, HttpOnly) are not secrets; values shorter than 8 characters are not hidden.
      if (
        pair.includes('=') &&
        value.length >= 8 &&
        !/^(path|domain|expires|max-age|samesite)$/i.test(pair.split('=')[0]?.trim() ?? '')
      )
        found.push(value);
    }
  }
  return found;
}

/**
 * Remembers credentials and redacts all of them at once.
 * @example const secrets = new SecretSet(); secrets.remember(['eyJ...']); secrets.redact('got eyJ...') // 'got <redacted>'
 */
export class SecretSet {
  readonly #redactors = new Map<string, Redact>();

  constructor(initial: readonly string[] = []) {
    this.remember(initial);
  }

  /** Adds credentials; a known one moves to the front, so the ones in use are never the ones forgotten. */
  remember(credentials: readonly string[]): void {
    for (const credential of credentials) {
      const known = this.#redactors.get(credential);
      this.#redactors.delete(credential);
      this.#redactors.set(credential, known ?? createRedactor(credential));
      if (this.#redactors.size > MAX_REMEMBERED) {
        const oldest = this.#redactors.keys().next().value;
        if (oldest !== undefined) this.#redactors.delete(oldest);
      }
    }
  }

  /** The text with every remembered credential hidden, in every form the redactor knows. */
  readonly redact: Redact = (text) => {
    let result = text;
    for (const redact of this.#redactors.values()) result = redact(result);
    return result;
  };
}
