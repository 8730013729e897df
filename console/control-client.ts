// How the console talks to a fake: the control plane over HTTP (fetch), relative to where the page is served, with the
// control token when one was asked for and the session the page watches. Nothing else of the kit is reached.

/** One answer of the control plane: its status and body, parsed when it is JSON (still `unknown` until read). */
export interface Reply {
  status: number;
  ok: boolean;
  body: unknown;
}

/** A problem+json's field errors, by JSON Pointer: what a form shows at each field. */
export interface FieldError {
  path: string;
  message: string;
}

/** What the console sends with every call; the control token lives in memory only, never in storage or a URL. */
interface Connection {
  base: string;
  controlToken: string | undefined;
  session: string | undefined;
}

const connection: Connection = { base: '', controlToken: undefined, session: undefined };
const tokenListeners = new Set<() => void>();

export function setControlToken(token: string | undefined): void {
  connection.controlToken = token === '' ? undefined : token;
}

/** The session whose state and journal the console shows (undefined: the default one). */
export function setSession(session: string | undefined): void {
  connection.session = session === '' ? undefined : session;
}

/** Called when the control plane asks for its token (a 403 `control-token`). */
export function onTokenNeeded(listener: () => void): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

function headers(json: boolean): Record<string, string> {
  const result: Record<string, string> = {};
  if (json) result['content-type'] = 'application/json';
  if (connection.controlToken !== undefined) result['x-mock-control-token'] = connection.controlToken;
  if (connection.session !== undefined) result['x-mock-session'] = connection.session;
  return result;
}

function asksForToken(status: number, body: unknown): boolean {
  return (
    status === 403 &&
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { type?: unknown }).type === 'string' &&
    (body as { type: string }).type.endsWith('control-token')
  );
}

/**
 * Calls the control plane.
 * @example const reply = await call('POST', '/__mock/clock/advance', { seconds: 30 });
 */
export async function call(method: string, path: string, body?: unknown): Promise<Reply> {
  const response = await fetch(`${connection.base}${path}`, {
    method,
    headers: headers(body !== undefined),
    ...(body !== undefined && { body: JSON.stringify(body) }),
    credentials: 'same-origin',
  });
  const text = await response.text();
  let parsed: unknown = text;
  if (/json/.test(response.headers.get('content-type') ?? '')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (asksForToken(response.status, parsed)) for (const listener of tokenListeners) listener();
  return { status: response.status, ok: response.ok, body: parsed };
}

/** The field errors of a refusal (problem+json `errors`), or none. */
export function fieldErrors(body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null) return [];
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((error: unknown) => {
    if (typeof error !== 'object' || error === null) return [];
    const { path, message } = error as { path?: unknown; message?: unknown };
    return typeof path === 'string' && typeof message === 'string' ? [{ path, message }] : [];
  });
}

/** A refusal's `detail`, or its status when it has none. */
export function problemDetail(reply: Reply): string {
  const detail =
    typeof reply.body === 'object' && reply.body !== null ? (reply.body as { detail?: unknown }).detail : '';
  return typeof detail === 'string' && detail !== '' ? detail : `The fake answered ${reply.status}.`;
}

/**
 * Where the journal's Server-Sent Events text comes from when the page is not on a server: the in-page devtools panel
 * reads the worker's own core (msw answers a stream with its backlog only). It gets the headers `call` would send and
 * a push for each piece of text; it returns stop.
 */
export type StreamSource = (headers: Record<string, string>, push: (text: string) => void) => () => void;

let streamSource: StreamSource | undefined;

/** Reads the journal from `source` instead of over HTTP (the devtools panel). */
export function setStreamSource(source: StreamSource | undefined): void {
  streamSource = source;
}

/** Splits Server-Sent Events text into events as it arrives: `onEvent` gets each one's data, `onId` its id. */
function eventReader(onEvent: (data: string) => void, onId: (id: number) => void): (text: string) => void {
  let buffer = '';
  return (text) => {
    buffer += text;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('data: ')) data.push(line.slice(6));
        else if (line.startsWith('id: ')) onId(Number(line.slice(4)));
      }
      if (data.length > 0) onEvent(data.join('\n'));
      end = buffer.indexOf('\n\n');
    }
  };
}

/**
 * Reads a Server-Sent Events stream with fetch (EventSource cannot send the control token or the session header):
 * `onEvent` gets each event's data; on a drop it reconnects after a second from the last id seen. Returns stop.
 * @example const stop = streamEvents('/__mock/journal/events', (data) => console.log(data));
 */
export function streamEvents(
  path: string,
  onEvent: (data: string) => void,
  onState: (open: boolean) => void,
): () => void {
  if (streamSource !== undefined) {
    const stop = streamSource(
      headers(false),
      eventReader(onEvent, () => {}),
    );
    onState(true);
    return stop;
  }
  const controller = new AbortController();
  let lastId = 0;
  const connect = async (): Promise<void> => {
    while (!controller.signal.aborted) {
      try {
        const separator = path.includes('?') ? '&' : '?';
        const response = await fetch(`${connection.base}${path}${separator}after=${lastId}`, {
          headers: headers(false),
          signal: controller.signal,
          credentials: 'same-origin',
        });
        if (!response.ok || !response.body) {
          const text = await response.text();
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
          if (asksForToken(response.status, body)) for (const listener of tokenListeners) listener();
          onState(false);
          await new Promise((resolve) => setTimeout(resolve, 2000));
          continue;
        }
        onState(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        const read = eventReader(onEvent, (id) => {
          lastId = id || lastId;
        });
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          read(value);
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      onState(false);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  void connect();
  return () => controller.abort();
}
