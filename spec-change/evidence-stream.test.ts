// The streaming readers of spec-change's evidence: same evidence as the whole-document readers, whatever the order of
// members, and one-line refusals (EvidenceError) for input that is not JSON, not the right shape, or too deep.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openapiDocument } from '../spec/index.ts';
import { streamJournal, streamReportFile } from './evidence-stream.ts';
import { journalEntryEvidence, journalEvidence } from './journal-evidence.ts';
import { reportEvidence } from './report-evidence.ts';
import { EvidenceError, Replayer, type Evidence } from './traffic-replay.ts';

const directory = mkdtempSync(join(tmpdir(), 'agent-registry-evidence-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const exchange = (path: string) => ({
  request: { method: 'GET', url: `http://127.0.0.1:4010/api${path}` },
  response: { status: 404, headers: { 'content-type': 'application/problem+json' }, body: '' },
});

function fromFile(text: string): Evidence[] {
  const file = join(directory, `report-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, text);
  const found: Evidence[] = [];
  streamReportFile(file, openapiDocument, (e) => found.push(e));
  return found;
}

async function fromAnswer(text: string, chunkSize = 7): Promise<Evidence[]> {
  const bytes = new TextEncoder().encode(text);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize);
  }
  const found: Evidence[] = [];
  await streamJournal(chunks(), openapiDocument, (e) => found.push(e));
  return found;
}

describe('streamReportFile', () => {
  test('gives what reportEvidence gives, with baseUrl and ids after the exchanges', () => {
    const report = {
      checks: [
        { exchanges: [exchange('/v1/agents/agt_1'), exchange('/elsewhere')], id: 'late-id' },
        { id: 'early-id', exchanges: [exchange('/v1/agents/agt_2')] },
      ],
      baseUrl: 'http://127.0.0.1:4010/api/',
    };
    const streamed = fromFile(JSON.stringify(report));
    const whole = reportEvidence(report, openapiDocument);
    // The id that comes after its exchanges is not waited for: those exchanges are labelled by the check's index.
    expect(streamed.map((e) => e.where)).toEqual(['check 0 #0', 'early-id #0']);
    expect(streamed.map(({ where: _, ...rest }) => rest)).toEqual(whole.map(({ where: _, ...rest }) => rest));
    expect(streamed.map((e) => e.path)).toEqual(['/v1/agents/agt_1', '/v1/agents/agt_2']);
  });

  test('a recording, its format given last', () => {
    const recording = {
      exchanges: [exchange('/v1/agents/agt_1')],
      baseUrl: 'http://127.0.0.1:4010/api',
      format: 'agent-registry-kit-recording',
    };
    expect(fromFile(JSON.stringify(recording))).toEqual(reportEvidence(recording, openapiDocument));
  });

  test.each([
    ['not JSON', 'nope', /not JSON/],
    ['cut short', '{"checks":[{"exchanges":[', /not JSON/],
    ['not a report', '{"entries":[]}', /not a contract report or a recording/],
    ['an array', '[1,2]', /not a contract report or a recording/],
    ['nested 100,000 deep', `{"checks":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`, /nested deeper than 64/],
  ])('%s: EvidenceError', (_name, text, message) => {
    expect(() => fromFile(text)).toThrow(EvidenceError);
    expect(() => fromFile(text)).toThrow(message);
  });
});

describe('streamJournal', () => {
  test('gives what journalEvidence gives, whatever the chunks', async () => {
    const journal = {
      entries: [
        { at: '2026-01-01T00:00:00.000Z', method: 'GET', path: '/v1/agents/agt_1', status: 200 },
        { method: 'GET', path: '/elsewhere', status: 404 },
        { method: 'GET', path: '/v1/agents/agt_é', status: 404 },
      ],
      capacity: 1000,
    };
    for (const size of [1, 3, 1 << 16])
      expect(await fromAnswer(JSON.stringify(journal), size)).toEqual(journalEvidence(journal, openapiDocument));
  });

  test.each([
    ['not a journal', '{"checks":[]}', /not a journal/],
    ['not JSON', '<html>', /not JSON/],
    ['nested 100,000 deep', `{"entries":[${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}]}`, /nested deeper than 64/],
  ])('%s: EvidenceError', async (_name, text, message) => {
    await expect(fromAnswer(text, 4096)).rejects.toThrow(message);
    await expect(fromAnswer(text, 4096)).rejects.toBeInstanceOf(EvidenceError);
  });
});

describe('Replayer keeps a bounded list of findings', () => {
  test('past the cap findings are counted, not listed, and the counts stay whole', () => {
    // A head without operations rejects every recorded request and answer the base accepts.
    const head = { ...structuredClone(openapiDocument), paths: {} };
    const replayer = new Replayer(openapiDocument, head, 3);
    const entry = { method: 'GET', path: '/v1/agents/agt_1', status: 200 };
    for (let index = 0; index < 5; index += 1) {
      const evidence = journalEntryEvidence(entry, index, openapiDocument);
      if (evidence) replayer.add(evidence);
    }
    const result = replayer.result();
    expect(result.findings).toHaveLength(3);
    expect(result.findingsOmitted).toBe(7);
    expect(result.newlyRejected).toBe(10);
    expect(result.alreadyRejected).toBe(0);
  });
});
