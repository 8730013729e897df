// Reads a journal (from a running fake) or a contract report / proxy recording (from a file) as a stream of evidence,
// so spec-change replays a source of any size in bounded memory: each entry is parsed, replayed and dropped.
import type { JsonObject } from '../spec/index.ts';
import {
  createJsonItemStream,
  feedFile,
  JsonStreamError,
  type JsonItem,
  type JsonItemStream,
} from './json-item-stream.ts';
import { journalEntryEvidence, NOT_A_JOURNAL } from './journal-evidence.ts';
import { exchangeEvidence, NOT_A_REPORT, reportPrefix } from './report-evidence.ts';
import { EvidenceError, type Evidence } from './traffic-replay.ts';

/**
 * The most one entry (or one JSON value) may take. The fake cuts journal bodies and reports cut exchange bodies at
 * 64 KiB, so a real entry is far below this; a larger one is refused rather than held.
 */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
/** Journals and reports nest about 6 deep; deeper input is refused, as the parser keeps one frame per level. */
const MAX_DEPTH = 64;

function itemStream(paths: string[], itemDepth: number, onItem: (item: JsonItem) => void): JsonItemStream {
  return createJsonItemStream({ paths, itemDepth, onItem, maxBytes: MAX_ENTRY_BYTES, maxDepth: MAX_DEPTH });
}

/** What a JSON stream error says, as an EvidenceError for the CLI's one line. */
function asEvidenceError(error: unknown): unknown {
  return error instanceof JsonStreamError ? new EvidenceError(error.message) : error;
}

/** The top-level members that decide what a report file is; a first pass reads only these (order in the file is free). */
function reportHeader(file: string): { kind: 'recording' | 'report'; prefix: string } {
  const scalars: JsonObject = {};
  // No items are built here (two scalars), so no item bound applies: only the bound on one value and on depth.
  const stream = itemStream(['$.format', '$.baseUrl'], Number.POSITIVE_INFINITY, ({ value, keys }) => {
    const key = keys[0];
    if (typeof key === 'string') scalars[key] = value;
  });
  feedFile(file, stream);
  const { isObject, kinds } = stream.topLevel;
  const prefix = reportPrefix(scalars.baseUrl);
  if (isObject && scalars.format === 'agent-registry-kit-recording' && kinds.get('exchanges') === 'array')
    return { kind: 'recording', prefix };
  if (isObject && kinds.get('checks') === 'array') return { kind: 'report', prefix };
  throw new EvidenceError(NOT_A_REPORT);
}

/**
 * Replays a contract run's --json report, or a recording of proxy --record, from `file` into `add`, one exchange at a
 * time. Throws EvidenceError (one line) when the file is not JSON, not a report, or breaks a bound.
 * @example streamReportFile('contract.json', base, (e) => replayer.add(e));
 */
export function streamReportFile(file: string, base: JsonObject, add: (evidence: Evidence) => void): void {
  try {
    const { kind, prefix } = reportHeader(file);
    // A check's id usually comes before its exchanges (the contract command writes it so); when it does not, the
    // exchanges are labelled by the check's index instead of holding them until the id arrives.
    let check: { index: number | string | undefined; id: string | undefined } = { index: undefined, id: undefined };
    const onItem = ({ value, keys }: JsonItem): void => {
      const [, checkIndex, member, index] =
        kind === 'recording' ? [undefined, 'recording', 'exchanges', keys[1]] : keys;
      if (check.index !== checkIndex) check = { index: checkIndex, id: undefined };
      if (member === 'id') {
        if (typeof value === 'string') check.id = value;
        return;
      }
      const label = kind === 'recording' ? 'recording' : (check.id ?? `check ${String(checkIndex)}`);
      const evidence = exchangeEvidence(value, `${label} #${String(index)}`, prefix, base);
      if (evidence) add(evidence);
    };
    const stream =
      kind === 'recording'
        ? itemStream(['$.exchanges.*'], 2, onItem)
        : itemStream(['$.checks.*.exchanges.*', '$.checks.*.id'], 4, onItem);
    feedFile(file, stream);
  } catch (error) {
    throw asEvidenceError(error);
  }
}

/**
 * Replays the journal a fake's `GET /__mock/journal` answered, read from `body` chunk by chunk, into `add`.
 * Throws EvidenceError (one line) when the answer is not JSON, not a journal, or breaks a bound.
 * @example await streamJournal(answer.body, base, (e) => replayer.add(e));
 */
export async function streamJournal(
  chunks: AsyncIterable<Uint8Array>,
  base: JsonObject,
  add: (evidence: Evidence) => void,
): Promise<void> {
  const stream = itemStream(['$.entries.*'], 2, ({ value, keys }) => {
    const evidence = journalEntryEvidence(value, Number(keys[1]), base);
    if (evidence) add(evidence);
  });
  try {
    for await (const chunk of chunks) stream.write(chunk);
    stream.end();
  } catch (error) {
    throw asEvidenceError(error);
  }
  if (!stream.topLevel.isObject || stream.topLevel.kinds.get('entries') !== 'array')
    throw new EvidenceError(NOT_A_JOURNAL);
}
