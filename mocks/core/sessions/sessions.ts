// Sessions: one running fake keeps an isolated store, clock, scenarios and journal per session id, so parallel test
// workers never collide. A request names its session with the X-Mock-Session header (or the mock-session cookie, for
// pages the browser navigates); without one it is the default session, which pays one header lookup for the feature.
import { refuseCrossSite, withCors, type CorsOrigins } from '../request/cors.ts';
import { refuseRepeatedHeaders } from '../request/repeated-headers.ts';
import type { MockRequest, MockResponse } from '../mock-http.ts';
import { problemResponse } from '../problems.ts';

/** The header a request names its session with (lower case, as adapters hand headers to the core). */
export const SESSION_HEADER = 'x-mock-session';
/** The cookie a page's navigations name their session with (the header wins when both are sent). */
export const SESSION_COOKIE = 'mock-session';
/** Session ids: 1 to 64 URL-unreserved characters, so an id fits a header, a cookie and a path segment unescaped. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9._~-]{1,64}$/;
/** Default bound of live sessions (`--max-sessions`); the least recently used one is evicted beyond it. */
const DEFAULT_MAX_SESSIONS = 100;
/**
 * Default bound of the records all sessions hold together, and each alone (`--session-records`): agents beside the
 * seed's catalogue, tasks, journal entries, and one per KiB of overrides' answers.
 */
const DEFAULT_SESSION_RECORDS = 100_000;
/** Journal entries each session keeps (the default session keeps `--journal-size`). */
export const SESSION_JOURNAL_SIZE = 200;
/** Tasks each session's history keeps (the default session keeps `--max-tasks`). */
export const SESSION_MAX_TASKS = 2000;

/** How many sessions a fake keeps, and how much they may hold together. */
export interface SessionOptions {
  /** Live sessions at most (default 100); 0 turns sessions off (a request naming one gets a 400). */
  max?: number;
  /** Records of all sessions together, and of each alone, at most (default 100,000); see `SessionFactory.records`. */
  maxRecords?: number;
}

/** How a registry makes and weighs its sessions. */
export interface SessionFactory<T> {
  /** A new session, as the seed makes it. */
  create(id: string): T;
  /** Records it holds (agents beside the catalogue, tasks, journal entries, one per KiB of overrides): its weight. */
  records(session: T): number;
}

/** What the registry needs of a session's fake. */
export interface SessionTarget {
  handle(request: MockRequest): Promise<MockResponse>;
  reset(): void;
  persist(): Promise<void>;
}

/** One line of GET /__mock/sessions. */
export interface SessionSummary {
  id: string;
  /** Deployed agents, tasks and journal entries it holds. */
  records: number;
}

/**
 * Answers that refuse a request (no or a bad token, a forbidden origin): a session such a request named for the first
 * time is forgotten again, so a refused request creates nothing.
 */
const REFUSALS = new Set([401, 403]);

/** Which session a request names: none (the default one), an id, or why the name is refused. */
export type SessionName = { kind: 'default' } | { kind: 'named'; id: string } | { kind: 'bad'; response: MockResponse };

const DEFAULT: SessionName = { kind: 'default' };

/**
 * Every mock-session value in a Cookie header (a browser joins several Cookie headers with `; `), each unquoted: RFC
 * 6265 lets a cookie value be wrapped in double quotes, which are not part of it.
 */
function cookieValues(cookie: string): string[] {
  if (!cookie.includes(`${SESSION_COOKIE}=`)) return [];
  const values: string[] = [];
  for (const part of cookie.split(';')) {
    const pair = part.trim();
    if (!pair.startsWith(`${SESSION_COOKIE}=`)) continue;
    const value = pair.slice(SESSION_COOKIE.length + 1);
    values.push(value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
  }
  return values;
}

/**
 * Why `id` cannot be a session id, or undefined when it can.
 * @example sessionIdProblem('worker-1') // undefined; sessionIdProblem('a b') // 'must be 1 to 64 characters of …'
 */
export function sessionIdProblem(id: string): string | undefined {
  return SESSION_ID_PATTERN.test(id)
    ? undefined
    : 'must be 1 to 64 characters of A-Z, a-z, 0-9 and . _ ~ - (one session id, not a list)';
}

/**
 * The session a request names: the X-Mock-Session header, else the mock-session cookie, else the default session.
 * @example sessionOf({ headers: { 'x-mock-session': 'w1' }, ... }) // { kind: 'named', id: 'w1' }
 */
export function sessionOf(request: MockRequest): SessionName {
  const header = request.headers[SESSION_HEADER];
  const cookie = request.headers.cookie;
  if (header === undefined && cookie === undefined) return DEFAULT;
  const fromHeader = header !== undefined;
  const fromCookie = fromHeader ? [] : cookieValues(cookie ?? '');
  const id = fromHeader ? header : fromCookie[0];
  if (id === undefined) return DEFAULT;
  // Two cookies of one name (set for two paths or domains) are two answers to "which session": refused, as two
  // X-Mock-Session headers are, rather than one picked by the order the browser happened to send them in.
  const problem =
    fromCookie.length > 1 ? 'must be sent once (the request carries more than one)' : sessionIdProblem(id);
  if (problem === undefined) return { kind: 'named', id };
  const where = fromHeader ? `/header/${SESSION_HEADER}` : `/cookie/${SESSION_COOKIE}`;
  return {
    kind: 'bad',
    response: problemResponse('bad-request', {
      detail: `The session id in ${fromHeader ? 'the X-Mock-Session header' : 'the mock-session cookie'} ${problem}.`,
      instance: request.path.slice(0, 2048),
      errors: [{ path: where, message: problem }],
    }),
  };
}

/**
 * The live sessions of one fake, least recently used first; a session is created from the seed on first use and the
 * least recently used ones are evicted beyond the bounds (count, and records held together).
 * @example
 * const sessions = new SessionRegistry({ create: () => newSessionCore(), records: () => 0 }, { max: 10 });
 * await sessions.get('worker-1').handle(request);
 */
export class SessionRegistry<T extends SessionTarget = SessionTarget> {
  readonly max: number;
  readonly maxRecords: number;
  #sessions = new Map<string, T>();
  /** Sessions created by a request still being answered, with how many of their requests are: not yet kept. */
  #unconfirmed = new Map<T, number>();
  #factory: SessionFactory<T>;

  constructor(factory: SessionFactory<T>, options: SessionOptions = {}) {
    this.#factory = factory;
    this.max = Math.max(0, Math.floor(options.max ?? DEFAULT_MAX_SESSIONS));
    this.maxRecords = Math.max(0, Math.floor(options.maxRecords ?? DEFAULT_SESSION_RECORDS));
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** The session, created from the seed when new, and marked most recently used. */
  get(id: string): T {
    let session = this.#sessions.get(id);
    if (session) this.#sessions.delete(id);
    else session = this.#factory.create(id);
    this.#sessions.set(id, session);
    this.#evict(id);
    return session;
  }

  /**
   * The session named `id`, as `get`, after checking the id; throws on one no request could name.
   * @example registry.open('worker-1'); registry.open('a b') // throws
   */
  open(id: string): T {
    const problem = sessionIdProblem(id);
    if (problem !== undefined) throw new Error(`The session id ${JSON.stringify(id.slice(0, 100))} ${problem}.`);
    return this.get(id);
  }

  /** The session when it is live, without marking it used. */
  peek(id: string): T | undefined {
    return this.#sessions.get(id);
  }

  /** Forgets a session; false when there was none. */
  delete(id: string): boolean {
    return this.#sessions.delete(id);
  }

  /** Forgets every session. */
  clear(): void {
    this.#sessions.clear();
  }

  /** Live sessions, least recently used first. */
  list(): SessionSummary[] {
    return [...this.#sessions].map(([id, session]) => ({ id, records: this.#factory.records(session) }));
  }

  /**
   * Answers a request in its session, then applies the bounds (the session just used is never the one evicted). A
   * session this request created is kept only once one of its requests is answered with something other than a refusal.
   */
  async handle(id: string, request: MockRequest): Promise<MockResponse> {
    const fresh = !this.#sessions.has(id);
    const session = this.get(id);
    const pending = fresh ? 0 : this.#unconfirmed.get(session);
    if (pending !== undefined) this.#unconfirmed.set(session, pending + 1);
    const response = await session.handle(request);
    const left = this.#unconfirmed.get(session);
    if (left !== undefined) {
      if (!REFUSALS.has(response.status)) this.#unconfirmed.delete(session);
      else if (left > 1) this.#unconfirmed.set(session, left - 1);
      else {
        this.#unconfirmed.delete(session);
        if (this.#sessions.get(id) === session) this.#sessions.delete(id);
        return response;
      }
    }
    this.#evict(id);
    return response;
  }

  /** Evicts the least recently used sessions beyond the bounds, sparing `keep`. */
  #evict(keep: string): void {
    while (this.#sessions.size > this.max) if (!this.#dropOldest(keep)) return;
    let total = 0;
    for (const session of this.#sessions.values()) total += this.#factory.records(session);
    while (total > this.maxRecords) {
      const dropped = this.#dropOldest(keep);
      if (!dropped) return;
      total -= this.#factory.records(dropped);
    }
  }

  #dropOldest(keep: string): T | undefined {
    for (const [id, session] of this.#sessions) {
      if (id === keep) continue;
      this.#sessions.delete(id);
      return session;
    }
    return undefined;
  }
}

/**
 * The 400 for a request naming a session on a fake whose sessions are off (`--max-sessions 0`).
 * @example sessionsOff(request).status // 400
 */
function sessionsOff(request: MockRequest): MockResponse {
  return problemResponse('bad-request', {
    detail: 'This fake runs without sessions (--max-sessions 0); send no X-Mock-Session header or mock-session cookie.',
    instance: request.path.slice(0, 2048),
    errors: [{ path: `/header/${SESSION_HEADER}`, message: 'sessions are off on this fake' }],
  });
}

/** The routes that manage sessions belong to the default session, whichever session a request names. */
const isSessionsPath = (path: string): boolean => path === '/__mock/sessions' || path.startsWith('/__mock/sessions/');

/**
 * The default core's router to sessions: the answer of the session a request names (or the 400 for a bad name), or
 * undefined when the request is the default session's. `registry` undefined means sessions are off.
 * @example const route = createSessionRouting(registry, '*'); route(request) ?? answerInDefaultSession(request);
 */
export function createSessionRouting<T extends SessionTarget>(
  registry: SessionRegistry<T> | undefined,
  corsOrigins: CorsOrigins,
): (request: MockRequest) => Promise<MockResponse> | undefined {
  return (request) => {
    if (isSessionsPath(request.path)) return undefined;
    const name = sessionOf(request);
    if (name.kind === 'default') return undefined;
    // A session is state the control plane steers (overrides, scenarios, seeded records) and costs memory: a page of
    // another site may use neither, whatever CORS allows it on /v1, and a request refused outright creates none.
    const refused = refuseCrossSite(corsOrigins, request) ?? refuseRepeatedHeaders(request);
    if (refused === undefined && name.kind === 'named' && registry) return registry.handle(name.id, request);
    const refusal = refused ?? (name.kind === 'bad' ? name.response : sessionsOff(request));
    // Refused before any core saw it, so the CORS headers are added here: a page must be able to read why.
    return Promise.resolve(withCors(corsOrigins, request, refusal, request.path.startsWith('/__mock')));
  };
}
