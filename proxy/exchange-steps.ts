// What the proxy does with one exchange once it is over, one step after the other: it learns the credentials the
// answer carried, decodes the answer, judges the exchange (exchange-verdict.ts), and hands the verdict to each step that
// takes it: redacted, kept and printed by the violation log, counted in the coverage, written to the recording.
import type { IncomingMessage } from 'node:http';
import type { Coverage } from '../mocks/core/steering/coverage.ts';
import type { Redact } from '../verifier-client/redaction.ts';
import type { Conversation } from './conversation.ts';
import { decodedBody } from './decoded-body.ts';
import type { ProxyViolation } from './exchange-check.ts';
import { judgeExchange, type ExchangeVerdict, type SeenExchange } from './exchange-verdict.ts';
import type { RecordingWriter } from './recording.ts';
import { credentialsOf, type SecretSet } from './secrets.ts';
import type { ViolationLog } from './violation-log.ts';

/** Bytes of an answer the proxy checks; a longer one is passed on whole and judged by its status alone. */
export const MAX_CHECKED_RESPONSE_BYTES = 8 * 1_048_576;

/** What one forwarded exchange produced, handed to `finish`. */
export interface Outcome {
  req: IncomingMessage;
  startedAt: number;
  requestBody: Buffer | undefined;
  answer: IncomingMessage | undefined;
  /** The answer's bytes as sent (still encoded); undefined when it passed the bound or never ended. */
  responseBody: Buffer | undefined;
  /** Why there is no whole answer (the upstream failed, timed out or broke off). */
  fault: string | undefined;
}

/** What the steps after the verdict write to, and the secrets they redact with. */
export interface ExchangeSteps {
  secrets: SecretSet;
  conversation: Conversation;
  violations: ViolationLog;
  coverage: Coverage;
  recording?: RecordingWriter | undefined;
}

/**
 * Judges the exchange and takes the verdict through every step; resolves to its violations, redacted. A body whose
 * decoded size passes the bound is judged by its status alone, as one whose size on the wire does.
 */
export async function finish(steps: ExchangeSteps, outcome: Outcome): Promise<ProxyViolation[]> {
  const { req, answer } = outcome;
  const responseHeaders = answer?.headers ?? {};
  // A credential the upstream sent (an API key, a cookie) is hidden like the app's own, from here on.
  steps.secrets.remember(credentialsOf(responseHeaders));
  const decoded =
    outcome.responseBody === undefined
      ? undefined
      : await decodedBody(outcome.responseBody, responseHeaders['content-encoding'], MAX_CHECKED_RESPONSE_BYTES);
  const responseBody = decoded === undefined || decoded.tooLarge ? undefined : decoded.text;
  const seen: SeenExchange = {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    requestHeaders: req.headers,
    requestBody: outcome.requestBody?.toString('utf8'),
    answer:
      answer === undefined || outcome.fault !== undefined
        ? undefined
        : { status: answer.statusCode ?? 0, headers: responseHeaders, body: responseBody },
    at: new Date(),
  };
  const verdict = judgeExchange(seen, steps.conversation);
  const found = redacted(verdict.violations, steps.secrets.redact);
  if (verdict.judged) {
    steps.violations.add(found, seen.at);
    countInCoverage(steps.coverage, seen, verdict);
  }
  steps.recording?.add(
    {
      operationId: verdict.operationId,
      method: seen.method,
      target: seen.target,
      requestHeaders: seen.requestHeaders,
      requestBody: seen.requestBody,
      // No answer is recorded as none (with the reason), never as the proxy's own 502/504.
      status: outcome.fault === undefined ? answer?.statusCode : undefined,
      responseHeaders,
      responseBody,
      error: outcome.fault,
      durationMs: Math.round(performance.now() - outcome.startedAt),
    },
    steps.secrets.redact,
  );
  return found;
}

/** The violations as the log, the control plane and the 502 show them: no credential in what was found or said. */
function redacted(violations: readonly ProxyViolation[], redact: Redact): ProxyViolation[] {
  return violations.map((violation) => ({
    ...violation,
    // The path of a request no operation has is the path as sent, whatever the app put in it.
    path: redact(violation.path),
    found: redact(violation.found),
    message: redact(violation.message),
    ...(violation.exchanges && {
      exchanges: violation.exchanges.map((ref) => ({ ...ref, path: redact(ref.path) })),
    }),
  }));
}

/**
 * Counts an answer of the API in the coverage, as the fake counts its own: by operation and status, and the status a
 * `Prefer: code=` asked for (the only part of the request the counter reads).
 */
function countInCoverage(coverage: Coverage, seen: SeenExchange, verdict: ExchangeVerdict): void {
  if (!seen.target.startsWith('/v1/') || seen.answer === undefined) return;
  const prefer = seen.requestHeaders.prefer;
  coverage.record(
    verdict.operationId,
    { headers: { prefer: Array.isArray(prefer) ? prefer.join(', ') : prefer } },
    { status: seen.answer.status, headers: {}, body: '' },
    undefined,
  );
}
