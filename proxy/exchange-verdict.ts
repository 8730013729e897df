// The judging of one exchange the proxy forwarded, as a function of what was seen: the single-exchange checks
// (exchange-check.ts), then the rules across exchanges (conversation.ts), which the conversation given is the whole
// memory of. It reads no clock, no secret and no socket, and writes nowhere: what is done with the verdict (redacted,
// kept, printed, counted in the coverage, recorded) is a step of its own that takes it (exchange-steps.ts).
import { getOperation, type OperationId, type RuleOrigin } from '../spec/index.ts';
import type { Conversation } from './conversation.ts';
import { checkExchange, type ProxyViolation } from './exchange-check.ts';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** One exchange as the proxy saw it, bodies decoded to text (undefined when there was none or it was too large). */
export interface SeenExchange {
  method: string;
  /** The request target as the app sent it: the path, still percent-encoded, and the query. */
  target: string;
  requestHeaders: Headers;
  requestBody: string | undefined;
  /** The upstream's whole answer; undefined when there was none to judge (it failed, timed out or broke off). */
  answer: { status: number; headers: Headers; body: string | undefined } | undefined;
  /** When the answer was checked: the time the findings across exchanges name. */
  at: Date;
}

export interface ExchangeVerdict {
  /** Whether there was an answer to judge: an exchange without one is neither kept nor counted, only recorded. */
  judged: boolean;
  /** The operation the request is, null when none of the spec's is (or the path is outside the API). */
  operationId: OperationId | null;
  /** Every violation found, as found: redacting them is the steps' business. */
  violations: ProxyViolation[];
}

/**
 * The verdict on one exchange; the conversation learns from it (a deploy, an id) for the exchanges after it.
 * @example judgeExchange({ method: 'GET', target: '/v1/agents/agt_1', ..., answer: { status: 200, ... }, at }, conversation).violations
 */
export function judgeExchange(exchange: SeenExchange, conversation: Conversation): ExchangeVerdict {
  const { method, target, answer } = exchange;
  if (answer === undefined) return { judged: false, operationId: null, violations: [] };
  const path = target.split('?')[0] ?? '/';
  const check = checkExchange({
    method,
    path,
    query: target.slice(path.length + 1),
    requestHeaders: exchange.requestHeaders,
    requestBody: exchange.requestBody,
    status: answer.status,
    responseHeaders: answer.headers,
    responseBody: answer.body,
  });
  const violations = [...check.violations];
  if (check.operationId !== null)
    violations.push(
      ...conversation.observe({
        operationId: check.operationId,
        method,
        path,
        template: getOperation(check.operationId).path,
        parameters: check.parameters,
        requestValid: check.requestValid,
        status: answer.status,
        json: check.json,
        at: exchange.at,
        malformed: malformedAnswer(check.violations),
      }),
    );
  return { judged: true, operationId: check.operationId, violations };
}

/** The answer's pointers its single-exchange checks found broken, each with the origin of what broke it (seed first). */
function malformedAnswer(
  violations: readonly { part: string; pointer: string; origin: RuleOrigin }[],
): Map<string, RuleOrigin> {
  const malformed = new Map<string, RuleOrigin>();
  for (const { part, pointer, origin } of violations)
    if (part === 'response' && malformed.get(pointer) !== 'seed') malformed.set(pointer, origin);
  return malformed;
}
