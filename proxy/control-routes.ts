// The proxy's own control plane under /__mock/: the violations it saw and the contract coverage the app exercised
// against the real server (the fake's Coverage, so `agent-registry-kit coverage --base-url <proxy>` reads it too).
import type { Coverage } from '../mocks/core/steering/coverage.ts';
import { jsonValueResponse, noContent, type MockRequest, type MockResponse } from '../mocks/core/mock-http.ts';
import { problemResponse } from '../mocks/core/problems.ts';
import type { Conversation } from './conversation.ts';
import type { ViolationLog } from './violation-log.ts';

export interface ProxyControlState {
  upstream: string;
  violations: ViolationLog;
  coverage: Coverage;
  conversation: Conversation;
}

type Route = (state: ProxyControlState) => MockResponse;

/** Every route, by path then method. */
const routes: Record<string, Record<string, Route>> = {
  '/__mock/health': {
    GET: (state) => jsonValueResponse(200, { status: 'ok', role: 'proxy', upstream: state.upstream }),
  },
  '/__mock/violations': {
    GET: (state) => jsonValueResponse(200, state.violations.report()),
    DELETE: (state) => {
      // The remembered deploys and ids go too: a finding after the reset is about exchanges after it.
      state.violations.clear();
      state.conversation.clear();
      return noContent();
    },
  },
  '/__mock/coverage': {
    GET: (state) => jsonValueResponse(200, state.coverage.report()),
    DELETE: (state) => {
      state.coverage.reset();
      return noContent();
    },
  },
};

/**
 * Answers a control-plane request of the proxy (guards already passed).
 * @example answerControl(state, { method: 'GET', path: '/__mock/violations', ... }).status // 200
 */
export function answerControl(state: ProxyControlState, request: MockRequest): MockResponse {
  const route = Object.hasOwn(routes, request.path) ? routes[request.path] : undefined;
  if (!route)
    return problemResponse('not-found', {
      detail: `The proxy's control plane has ${Object.keys(routes).join(', ')}; ${request.path.slice(0, 200)} is none of them.`,
      instance: request.path.slice(0, 2048),
    });
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const handler = Object.hasOwn(route, method) ? route[method] : undefined;
  if (!handler)
    return problemResponse('method-not-allowed', {
      detail: `${request.path} answers ${Object.keys(route).join(', ')}.`,
      instance: request.path,
      headers: { allow: Object.keys(route).join(', ') },
    });
  return handler(state);
}
