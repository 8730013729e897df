// What the broken servers of the self-check (../broken-servers.ts) are made of: the operation and agent a proxied
// request addresses, read through the spec as the proxy finds them, edits of a JSON body, a problem answer, a JWT's
// parts, and the shape of one broken server.
import { primaryCreation } from '../../../verifier-client/requests/linked-operations.ts';
import { matchOperation, openapiDocument, type OperationId } from '../../../spec/index.ts';
import type { Breakage, ProxiedRequest, ProxiedResponse } from '../breaking-proxy.ts';

/** The operation a request reaches, through the spec's path templates (as the proxy finds it), with its parameters. */
function routeOf(
  request: ProxiedRequest,
): { operationId: OperationId; parameters: Record<string, string> } | undefined {
  return matchOperation(openapiDocument, request.method, request.path.split('?')[0] ?? '', false);
}

export function operationOf(request: ProxiedRequest): OperationId | 'other' {
  return routeOf(request)?.operationId ?? 'other';
}

/** The id of the agent a request addresses (the path parameter a deploy's answer supplies), decoded. */
export function agentOf(request: ProxiedRequest): string {
  const value = routeOf(request)?.parameters[primaryCreation().parameter] ?? '';
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rewrites the JSON body of a response (left alone when it is not a JSON object). */
export function editJson(response: ProxiedResponse, edit: (body: Record<string, unknown>) => void): ProxiedResponse {
  const body = parse(response.body);
  if (!isRecord(body)) return response;
  edit(body);
  return { ...response, body: JSON.stringify(body) };
}

/** Rewrites the JSON body of a request (left alone when it is not a JSON object). */
export function editRequestJson(
  request: ProxiedRequest,
  edit: (body: Record<string, unknown>) => void,
): ProxiedRequest {
  const body = parse(request.body);
  if (!isRecord(body)) return request;
  edit(body);
  return { ...request, body: JSON.stringify(body) };
}

export function problem(status: number, title: string, path: string): ProxiedResponse {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: JSON.stringify({
      type: 'https://agent-registry.dev/problems/broken',
      title,
      status,
      detail: `${title} (broken server)`,
      instance: path,
    }),
  };
}

/** What a broken server is given: the token the fake accepts, for servers that let bad credentials through. */
interface BreakageContext {
  token: string;
}

export interface BrokenServer {
  /** A fresh breakage (some remember what they saw, e.g. the first agentId). */
  given: (context: BreakageContext) => Breakage;
  /** Exactly the rules the failed checks report (the `rule` of every violation), no more, no fewer. */
  rules: string[];
  /** Extra arguments of its contract run (e.g. --seed-only). */
  args?: string[];
  /** `several`: it must be caught under every seed, so it runs under `brokenServerSeeds` too, not only the table's one. */
  seeds?: 'several';
}

/** Decodes the payload of a JWT (the second segment), or undefined. */
export function jwtPart(token: string, index: number): Record<string, unknown> | undefined {
  const segment = token.split('.')[index];
  if (segment === undefined) return undefined;
  const value = parse(Buffer.from(segment, 'base64url').toString('utf8'));
  return isRecord(value) ? value : undefined;
}
