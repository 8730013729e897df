// A running fake's journal (`GET /__mock/journal`) as evidence: each request, its body (unless cut) and the status
// answered. The streaming reader (evidence-stream.ts) reads the same entries one at a time.
import { isJsonObject, matchOperation, type JsonObject } from '../spec/index.ts';
import { EvidenceError, type Evidence } from './traffic-replay.ts';

/** What a journal that is not one is told; shared with the streaming reader. */
export const NOT_A_JOURNAL =
  'the answer is not a journal (expected {"capacity", "entries": [...]} from GET /__mock/journal)';
/**
 * One journal entry as evidence, or undefined when it is not a call of the base version's operations.
 * @example journalEntryEvidence({ method: 'GET', path: '/v1/agents/agt_1', status: 200 }, 0, base)
 */
export function journalEntryEvidence(entry: unknown, index: number, base: JsonObject): Evidence | undefined {
  if (
    !isJsonObject(entry) ||
    typeof entry.method !== 'string' ||
    typeof entry.path !== 'string' ||
    typeof entry.status !== 'number'
  )
    return undefined;
  if (!matchOperation(base, entry.method, entry.path, false)) return undefined;
  const body = typeof entry.body === 'string' ? entry.body : undefined;
  return {
    source: 'journal',
    where: `#${index}${typeof entry.at === 'string' ? ` at ${entry.at}` : ''}`,
    method: entry.method,
    path: entry.path,
    templated: false,
    // The journal keeps no request headers; a body the fake accepted was JSON.
    request: { contentType: undefined, body, complete: entry.bodyTruncated !== true },
    response: { status: entry.status, contentType: undefined, body: undefined, complete: false, headers: undefined },
  };
}

/**
 * The fake's journal (`GET /__mock/journal`) as evidence: each request, its body (unless cut) and the status answered.
 * Entries for paths outside the base version's operations are left out: they are not calls of this API.
 * @example journalEvidence(await (await fetch(`${url}/__mock/journal`)).json(), base)
 */
export function journalEvidence(journal: unknown, base: JsonObject): Evidence[] {
  if (!isJsonObject(journal) || !Array.isArray(journal.entries)) throw new EvidenceError(NOT_A_JOURNAL);
  const evidence: Evidence[] = [];
  journal.entries.forEach((entry, index) => {
    const item = journalEntryEvidence(entry, index, base);
    if (item) evidence.push(item);
  });
  return evidence;
}
