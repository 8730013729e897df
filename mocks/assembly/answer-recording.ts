// What every API answer of a core leaves behind, in one place: its count in the coverage, its line in the journal and,
// for an operation of the spec, its exchange for the pact.
import { StorageWriteError } from '../state/storage.ts';
import type { AgentStore } from '../state/store/store.ts';
import type { PactLog, PactShare } from '../pact-export/pact-log.ts';
import { providerStateName, providerStateOf, type ProviderStateMarks } from '../pact-export/provider-state.ts';
import type { DispatchTrace } from '../core/api-dispatch.ts';
import type { Clock } from '../domain/clock.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import type { Coverage } from '../core/steering/coverage.ts';
import { exchangeDetail } from '../core/steering/exchange-detail.ts';
import { JOURNAL_BODY_LIMIT, journalText, type Journal } from '../core/steering/journal.ts';

/**
 * What an API answer leaves behind: its count in the coverage, its line in the journal and, for an operation of the
 * spec, its exchange for the pact with the provider state it met (exported for the bench's stage costs,
 * benchmarks/probes/request-path.ts).
 */
export function recordAnswer(
  parts: {
    coverage: Coverage;
    journal: Journal;
    clock: Clock;
    pact?: PactLog;
    /** Set in a session's core: what it adds to the pact counts against `--session-records`. */
    pactShare?: PactShare | undefined;
    store?: Pick<AgentStore, 'statusOf'>;
    providerStates?: ProviderStateMarks;
  },
  request: MockRequest,
  response: MockResponse,
  context: DispatchTrace,
  started: number,
): void {
  parts.coverage.record(context.operationId, request, response, context.scenario);
  const text = context.bodyText;
  parts.journal.add(
    {
      atMs: parts.clock.now(),
      method: request.method,
      path: journalText(request.path, 2048),
      query: journalText(request.query, 2048),
      operationId: context.operationId,
      status: response.status,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      body: text === null ? null : journalText(text),
      bodyTruncated: text !== null && text.length > JOURNAL_BODY_LIMIT,
      ...(context.forcedBy !== undefined && { forcedBy: context.forcedBy }),
    },
    parts.journal.watched ? exchangeDetail(request, response, context, parts.providerStates) : undefined,
  );
  const { operationId } = context;
  const { pact, store } = parts;
  if (operationId === null || pact === undefined || store === undefined) return;
  const { status } = response;
  try {
    // Every answer asks whether its exchange is new; only a new one builds anything (the key repeats almost always).
    const stateName = providerStateName(operationId, status, context, store);
    if (pact.has(operationId, request.method, status, stateName)) return;
    pact.record(request, response, {
      operationId,
      stateName,
      state: () => providerStateOf(operationId, status, context, store),
      ...(parts.pactShare !== undefined && { share: parts.pactShare }),
    });
  } catch (error) {
    // A state the storage cannot read (a tampered stored row, whose 503 is already the answer) describes nothing a
    // provider could set up: the exchange stays out of the pact, and the answer stands.
    if (!(error instanceof StorageWriteError)) throw error;
  }
}
