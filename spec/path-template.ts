// The one matcher of concrete paths against OpenAPI path templates (`/v1/agents/{agentId}`, `/files/{name}.json`):
// the fake's router, spec-change's replay, the proxy's exchange check, the read-only guard and the broken servers all
// read a path through it, so they cannot disagree about which operation a path is.
import { operationsOf } from './operations.ts';
import type { JsonObject } from './json-pointer.ts';
import type { OperationId } from './types.ts';

/** One piece of a template segment: literal text, or a parameter. */
export type SegmentToken = { literal: string } | { parameter: true };

/**
 * The pieces of one template segment, in order.
 * @example segmentTokens('{name}.json') // [{ parameter: true }, { literal: '.json' }]
 */
export function segmentTokens(segment: string): SegmentToken[] {
  return segment
    .split(/(\{[^}]*\})/)
    .filter((piece) => piece !== '')
    .map((piece) => (/^\{[^}]*\}$/.test(piece) ? { parameter: true as const } : { literal: piece }));
}

/** How a match treats parameter values. */
export interface TemplateMatchOptions {
  /**
   * Whether a parameter may be empty (`/v1/agents//execute`). A server's router says no (that path is not the
   * operation); a guard inspecting what a client is about to send says yes, so an empty id is still a value it checks.
   */
  allowEmpty?: boolean;
}

/**
 * Gives `count` parameters the text `value`: one character each (none when empty values are allowed), the last the
 * rest.
 */
function spread(value: string, count: number, into: string[], allowEmpty: boolean): boolean {
  if (count === 0) return value === '';
  const each = allowEmpty ? 0 : 1;
  if (value.length < count * each) return false;
  for (let i = 0; i < count - 1; i += 1) into.push(value.slice(i * each, (i + 1) * each));
  into.push(value.slice((count - 1) * each));
  return true;
}

/**
 * The parameter values of one path segment, or undefined when it does not fit. No regular expression: a template may
 * be untrusted (a pull request controls the head spec), and `{p1}{p2}…` as a regex backtracks exponentially. Each
 * literal is found leftmost (a segment's last literal at its end), so the work is linear in the segment.
 * @example matchSegment(segmentTokens('{name}.json'), 'a.json') // ['a']
 */
export function matchSegment(
  tokens: readonly SegmentToken[],
  text: string,
  options: TemplateMatchOptions = {},
): string[] | undefined {
  const allowEmpty = options.allowEmpty === true;
  const each = allowEmpty ? 0 : 1;
  const values: string[] = [];
  let at = 0;
  let pending = 0;
  for (const [index, token] of tokens.entries()) {
    if ('parameter' in token) {
      pending += 1;
      continue;
    }
    const found = literalAt(text, token.literal, at, pending, pending * each, index === tokens.length - 1);
    if (found === -1 || !spread(text.slice(at, found), pending, values, allowEmpty)) return undefined;
    at = found + token.literal.length;
    pending = 0;
  }
  return spread(text.slice(at), pending, values, allowEmpty) ? values : undefined;
}

/**
 * Where `literal` sits in `text` after `at` plus `reserved` characters for the `pending` parameters before it, or -1:
 * right at `at` when no parameter comes between, at the end for a segment's last literal, else leftmost.
 */
function literalAt(
  text: string,
  literal: string,
  at: number,
  pending: number,
  reserved: number,
  last: boolean,
): number {
  if (last) {
    const end = text.length - literal.length;
    return text.endsWith(literal) && end >= at + reserved ? end : -1;
  }
  if (pending === 0) return text.startsWith(literal, at) ? at : -1;
  return text.indexOf(literal, at + reserved);
}

/**
 * The path parameters' values (still percent-encoded), in the template's order, or undefined when `path` does not fit
 * `template`. A query string is not part of `path`: cut it first.
 * @example matchTemplate('/v1/agents/{agentId}', '/v1/agents/agt_1') // ['agt_1']
 */
export function matchTemplate(
  template: string,
  path: string,
  options: TemplateMatchOptions = {},
): string[] | undefined {
  const templateSegments = template.split('/');
  const pathSegments = path.split('/');
  if (templateSegments.length !== pathSegments.length) return undefined;
  const values: string[] = [];
  for (const [index, segment] of templateSegments.entries()) {
    const matched = matchSegment(segmentTokens(segment), pathSegments[index] ?? '', options);
    if (matched === undefined) return undefined;
    values.push(...matched);
  }
  return values;
}

/** A template with every parameter name blanked, so `{id}` and `{agentId}` at one place compare equal. */
function normalized(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

/** How many parameters a template has: the fewer, the more concrete. */
function parameterCount(template: string): number {
  return template.split('{').length - 1;
}

/**
 * The operation of a version of the document that a method and path reach, with the path parameters' values (still
 * percent-encoded). As OpenAPI says, a concrete path wins over a templated one (`/v1/agents/deploy` before
 * `/v1/agents/{agentId}`). With `templated`, `path` is itself a template (an example's) and matches by shape.
 * @example matchOperation(document, 'GET', '/v1/agents/agt_1', false)?.operationId // the retrieve's operationId
 */
export function matchOperation(
  document: JsonObject,
  method: string,
  path: string,
  templated: boolean,
): { operationId: OperationId; parameters: Record<string, string> } | undefined {
  let best: { operationId: OperationId; parameters: Record<string, string>; count: number } | undefined;
  for (const operation of operationsOf(document).values()) {
    if (operation.method !== method.toUpperCase()) continue;
    if (templated) {
      if (normalized(operation.path) === normalized(path))
        return { operationId: operation.operationId, parameters: {} };
      continue;
    }
    const count = parameterCount(operation.path);
    if (best !== undefined && best.count <= count) continue;
    const match = matchTemplate(operation.path, path);
    if (!match) continue;
    const parameters: Record<string, string> = {};
    operation.pathParameters.forEach((name, index) => {
      parameters[name] = match[index] ?? '';
    });
    best = { operationId: operation.operationId, parameters, count };
  }
  return best && { operationId: best.operationId, parameters: best.parameters };
}
