// The credentials the proxy has seen (bearer tokens, cookie values), each hidden by the contract suite's one redactor in
// every form it knows, wherever the proxy writes text: violation lines, the control plane, recordings.
import { createRedactor, type Redact } from '../verifier-client/redaction.ts';

/** Distinct credentials remembered; the oldest are forgotten past it (a redactor costs a few hundred strings). */
const MAX_REMEMBERED = 32;

/**
 * Header names whose whole value is a credential: never written into a record, whatever the redactor finds. Beside the
 * standard ones, the API-key headers servers commonly take and the proxy's own control token.
 */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-access-token',
  'x-mock-control-token',
]);

/** Headers meant for this proxy, not the upstream: its own credentials and its control plane's token. */
export const PROXY_ONLY_HEADERS: ReadonlySet<string> = new Set(['proxy-authorization', 'x-mock-control-token']);

/** Challenge headers: their scheme and these parameters say how to authenticate; anything else may be a token. */
const CHALLENGE_HEADERS: ReadonlySet<string> = new Set(['www-authenticate', 'proxy-authenticate']);
const PLAIN_CHALLENGE_PARAMETERS = /^(?:realm|scope|error|error_description|error_uri|charset|algorithm|qop|stale)$/i;
const TOKEN68_AFTER_SCHEME = /(^|,)(\s*[!#$%&'*+.^_`|~\w-]+\s+)[\w.~+/-]+=*(?=\s*(?:,|$))/g;
const AUTH_PARAMETER = /([!#$%&'*+.^_`|~\w-]+)(\s*=\s*)("(?:[^"\\]|\\.)*"|[^\s,"]*)/g;

/** Query parameter names that carry a credential (`?api_key=`, `?access_token=`, `?sig=`). */
const CREDENTIAL_PARAMETER = /key|token|secret|passw|signature|^sig$|auth|session|credential/i;

/** The credential of a header value: the part after a scheme (`Bearer`, `Basic`, `Token`), else the whole value. */
const credentialOf = (value: string): string =>
  /^\s*(?:bearer|basic|token)\s+(.+?)\s*$/i.exec(value)?.[1] ?? value.trim();

/**
 * A header's value as recorded: a credential header as `mark`; a challenge (`WWW-Authenticate`) keeps its schemes and
 * plain parameters (realm, error, scope) and hides a token68 (`Negotiate YIIG…`) and every other parameter's value.
 * @example recordedHeaderValue('www-authenticate', 'Bearer realm="api", token="s3"', '<redacted>') // 'Bearer realm="api", token="<redacted>"'
 */
export function recordedHeaderValue(name: string, value: string, mark: string): string {
  if (CREDENTIAL_HEADERS.has(name)) return mark;
  if (!CHALLENGE_HEADERS.has(name)) return value;
  return value
    .replace(TOKEN68_AFTER_SCHEME, `$1$2${mark}`)
    .replace(AUTH_PARAMETER, (whole, parameter: string, equals: string) =>
      PLAIN_CHALLENGE_PARAMETERS.test(parameter) ? whole : `${parameter}${equals}"${mark}"`,
    );
}

/**
 * `target` (path and query) with the value of every credential parameter replaced by `mark`.
 * @example recordedTarget('/v1/agents?api_key=s3cret&limit=2', '<redacted>') // '/v1/agents?api_key=<redacted>&limit=2'
 */
export function recordedTarget(target: string, mark: string): string {
  const question = target.indexOf('?');
  if (question === -1) return target;
  const query = target
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals !== -1 && CREDENTIAL_PARAMETER.test(pair.slice(0, equals))
        ? `${pair.slice(0, equals)}=${mark}`
        : pair;
    });
  return `${target.slice(0, question)}?${query.join('&')}`;
}

/**
 * The credentials of one message: the bearer token (or any Authorization value), each cookie's value, the value of
 * every other credential header and, given the request target, of every credential query parameter. Each is
 * remembered, so it is hidden wherever it appears next (a body echoing it, a violation line).
 * @example credentialsOf({ 'x-api-key': 'k-0123456789' }, '/v1/agents?access_token=t-0123456789') // ['k-0123456789', 't-0123456789']
 */
export function credentialsOf(headers: Readonly<Record<string, string | string[] | undefined>>, target = ''): string[] {
  const found: string[] = [];
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const token = credentialOf(authorization);
    if (token !== '') found.push(token);
  }
  for (const name of CREDENTIAL_HEADERS) {
    if (name === 'authorization' || name === 'cookie' || name === 'set-cookie') continue;
    for (const value of [headers[name]].flat())
      if (typeof value === 'string' && credentialOf(value).length >= 8) found.push(credentialOf(value));
  }
  const question = target.indexOf('?');
  if (question !== -1)
    for (const [name, value] of new URLSearchParams(target.slice(question + 1)))
      if (CREDENTIAL_PARAMETER.test(name) && value.length >= 8) found.push(value);
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
