// A server that answers every request 500 and reflects the bearer token it received back in every form a real server
// might: headers, a JSON body with escapes, base64, base64url, percent-encoding, entities, and far enough into a long body
// that any cut before redaction would leave part of it. The self-check's worst case for the contract CLI's redaction.
import { startFixtureServer } from '../support/fixture-server.ts';

/** One way the token is echoed: the text the server writes, and the part of it that only the token determines. */
export interface EchoForm {
  name: string;
  echoed: string;
  secret: string;
}

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** The characters of `encoded` (base64 or base64url of `prefix + token + suffix`) that only the token's bits fill. */
function tokenPart(encoded: string, prefix: string, token: string): string {
  const start = Buffer.byteLength(prefix);
  return encoded.slice(Math.ceil((8 * start) / 6), Math.floor((8 * (start + Buffer.byteLength(token))) / 6));
}

/** The token as JSON.stringify writes it inside a string: `\` → `\\`, `"` → `\"`, controls as `\u00XX`. */
const jsonEscaped = (text: string): string => JSON.stringify(text).slice(1, -1);

function signatureHexForms(token: string): EchoForm[] {
  const segments = token.split('.');
  if (segments.length !== 3) return [];
  const hex = Buffer.from(segments[2] ?? '', 'base64url').toString('hex');
  return [
    { name: 'signature-hex', echoed: hex, secret: hex },
    { name: 'signature-hex-upper', echoed: hex.toUpperCase(), secret: hex.toUpperCase() },
  ];
}

/**
 * The forms the server echoes `token` in, each valid inside a JSON string.
 * @example echoForms('aaa.bbb.ccc').map((form) => form.name)
 */
export function echoForms(token: string): EchoForm[] {
  const same = (name: string, echoed: string): EchoForm => ({ name, echoed, secret: echoed });
  const inBase64 = (name: string, prefix: string, suffix: string, url: boolean): EchoForm => {
    const encoded = url ? base64url(prefix + token + suffix) : base64(prefix + token + suffix);
    return { name, echoed: encoded, secret: tokenPart(encoded, prefix, token) };
  };
  const forms: EchoForm[] = [
    same('raw', token),
    // PHP's json_encode escapes `/`; .NET escapes `+` and others as \u00XX.
    same('slash-escaped', jsonEscaped(token).replaceAll('/', '\\/')),
    same(
      'unicode-escaped',
      token.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`),
    ),
    // An upstream's PHP answer quoted again as a JSON string.
    same('json-in-json', jsonEscaped(jsonEscaped(token).replaceAll('/', '\\/'))),
    same('percent-encoded', encodeURIComponent(token)),
    same('percent-encoded-twice', encodeURIComponent(encodeURIComponent(token))),
    same(
      'html-entities',
      token.replace(/[^A-Za-z0-9]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
    ),
    inBase64('base64-bearer', 'Bearer ', '', false),
    inBase64('base64-json-0', '{"token":"', '"}', false),
    inBase64('base64-json-1', '{"token":"x', '"}', false),
    inBase64('base64-json-2', '{"token":"xy', '"}', false),
    inBase64('base64url-claims', '{"user":"ci","tok":"', '"}', true),
    same('base64url', base64url(token)),
    { name: 'base64-in-url', echoed: encodeURIComponent(base64(token)), secret: encodeURIComponent(base64(token)) },
    // Ordinary JSON.stringify: `\` becomes `\\` (and `"` `\"`), once, and again for JSON inside JSON.
    same('json-stringify', jsonEscaped(token)),
    same('json-stringify-twice', jsonEscaped(jsonEscaped(token))),
    // JavaScript's code-point escapes (`\u{2e}`), which JSON has no form for: a JS snippet quoted in a JSON string.
    same(
      'js-code-point-escaped',
      token.replace(/[^A-Za-z0-9]/g, (c) => `\\\\u{${c.charCodeAt(0).toString(16)}}`),
    ),
    // HTML numeric references without `;`, which parsers accept where no digit follows.
    same(
      'html-entities-no-semicolon',
      token.replace(/[^A-Za-z0-9](?=(.?))/g, (c, next: string) => `&#${c.charCodeAt(0)}${/\d/.test(next) ? ';' : ''}`),
    ),
    // A JWT's signature as the hex of its bytes, in both cases (a debugging answer printing the HMAC).
    ...signatureHexForms(token),
  ];
  // A form that writes the token exactly as an earlier one (JSON.stringify of a JWT is the JWT) is sent once, so the
  // body stays short enough to straddle character 4000 after them.
  return forms.filter((form, index) => forms.findIndex((other) => other.echoed === form.echoed) === index);
}

/** Where the raw token starts so that 20 of its characters lie past `cut`, never before `from`. */
function straddle(cut: number, from: number, token: string): number {
  return Math.max(from, cut - (token.length - 20));
}

/**
 * The body: the token straddling character 80 (where a failed fixture deploy is cut), every form, then the token straddling character 4000.
 * @example JSON.parse(echoBody('tok/en+value')).raw // 'tok/en+value'
 */
function echoBody(token: string): string {
  const opening = '{"detail":"';
  let body = `${opening}${'x'.repeat(straddle(80, opening.length, token) - opening.length)}${token}"`;
  for (const form of echoForms(token)) body += `,"${form.name}":"${form.echoed}"`;
  const tail = ',"tail":"';
  const start = straddle(4000, body.length + tail.length, token);
  if (start === body.length + tail.length)
    throw new Error('echoing server: the forms pass character 4000; shorten them');
  return `${body}${tail}${'z'.repeat(start - body.length - tail.length)}${token}"}`;
}

export interface EchoingServer {
  url: string;
  /** Every Authorization header value received, as the server saw it. */
  received: string[];
  close(): Promise<void>;
}

/**
 * Starts the echoing server on a free loopback port.
 * @example const server = await startEchoingServer(); await runContract({ API_BASE_URL: server.url, API_TOKEN: token });
 */
export async function startEchoingServer(): Promise<EchoingServer> {
  const received: string[] = [];
  const server = await startFixtureServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const authorization = req.headers.authorization ?? '';
      received.push(authorization);
      const token = authorization.replace(/^\S+\s+/, '');
      const body = echoBody(token);
      res.writeHead(500, {
        'content-type': 'application/problem+json',
        'content-length': Buffer.byteLength(body),
        'x-echo-authorization': authorization,
        'x-echo-base64': base64(authorization),
        'www-authenticate': `Bearer error="invalid_token", error_description="the token ${token} is not accepted"`,
        'set-cookie': `session=${base64url(token)}; HttpOnly`,
      });
      res.end(body);
    });
  });
  return { url: server.url, received, close: server.close };
}
