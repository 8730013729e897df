// Closing a connection whose request was answered before its body was read (413, a refused Host or control token)
// without resetting it under a client still writing: the rest of the body is read and thrown away, within bounds.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { send } from './http-send.ts';
import type { MockResponse } from '../core/mock-http.ts';

/** Sockets whose request was already answered while its body kept arriving: a parse error there gets no second answer. */
export const lingering = new WeakSet<Socket>();

/** How much of an unwanted body is drained, and how long a silent client is waited for. */
export interface LingerLimits {
  drainLimitBytes: number;
  lingerMs: number;
}

/**
 * Lingering close (as Apache and nginx do): node closes a `Connection: close` answer as soon as it is written, which
 * resets the connection under a client still writing its body, so the client sees a broken pipe instead of the answer.
 * Instead the rest of the body is read and discarded, up to `drainLimitBytes` in all; the connection closes once the
 * body is in, once the client has been silent for `lingerMs`, or past the bound.
 * @example lingerAfter(req, received, { drainLimitBytes: 8 << 20, lingerMs: 2000 }); send(res, tooLarge, true);
 */
export function lingerAfter(req: IncomingMessage, alreadyReceived: number, limits: LingerLimits): void {
  const socket = req.socket;
  lingering.add(socket);
  let drained = alreadyReceived;
  let timer: NodeJS.Timeout | undefined;
  let answered = false;
  const cut = (): void => {
    socket.destroy();
  };
  const wait = (): void => {
    clearTimeout(timer);
    timer = setTimeout(cut, limits.lingerMs);
    timer.unref();
  };
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limits.drainLimitBytes) cut();
    else if (answered) wait();
  });
  req.on('error', cut);
  req.resume();
  const closeWhenWritten = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    answered = true;
    if (req.complete) {
      closeWhenWritten();
      return;
    }
    req.once('end', closeWhenWritten);
    wait();
  };
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Answers before the body is read (if there is one), then closes the connection the same careful way as a 413.
 * @example refuseEarly(req, res, problemResponse('forbidden-host', { detail }), limits)
 */
export function refuseEarly(
  req: IncomingMessage,
  res: ServerResponse,
  response: MockResponse,
  limits: LingerLimits,
): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
  if (hasBody) lingerAfter(req, 0, limits);
  else req.resume();
  send(res, response, true);
}
