// CORS for browser frontends: configurable allowed origins, preflights answered, Authorization and Prefer allowed.
import type { MockRequest, MockResponse } from './mock-http.ts';
import { problemResponse } from './problems.ts';

/** `'*'` allows every origin (the default: a development fake); a list allows exactly those origins. */
export type CorsOrigins = '*' | readonly string[];

const ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Prefer';
const EXPOSE_HEADERS = 'WWW-Authenticate, Retry-After, Allow, Preference-Applied';

/** Whether `origin` may call the fake from a browser. */
export function isOriginAllowed(origins: CorsOrigins, origin: string): boolean {
  return origins === '*' || origins.includes(origin);
}

/**
 * The answer to a CORS preflight (an OPTIONS request with Origin and Access-Control-Request-Method), or undefined if it is not one.
 * @example preflight('*', { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }, ... })
 */
export function preflight(origins: CorsOrigins, request: MockRequest): MockResponse | undefined {
  const origin = request.headers.origin;
  if (request.method !== 'OPTIONS' || !origin || !request.headers['access-control-request-method']) return undefined;
  if (!isOriginAllowed(origins, origin)) {
    return problemResponse('forbidden-origin', {
      detail: `Origin ${origin} is not allowed; start the fake with --cors-origin ${origin}.`,
      instance: request.path,
    });
  }
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': '600',
      vary: 'Origin',
    },
    body: '',
  };
}

/** Adds the CORS headers of an allowed origin to an ordinary response. */
export function withCors(origins: CorsOrigins, request: MockRequest, response: MockResponse): MockResponse {
  const origin = request.headers.origin;
  if (!origin || !isOriginAllowed(origins, origin)) return response;
  response.headers['access-control-allow-origin'] = origin;
  response.headers['access-control-expose-headers'] = EXPOSE_HEADERS;
  response.headers.vary = 'Origin';
  return response;
}
