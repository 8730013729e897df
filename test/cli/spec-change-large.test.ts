// spec-change replays evidence of any size in bounded memory: a report file and a journal answer each far larger than
// the CLI's heap are read to their last entry and give a verdict. Were either held whole (a string, then JSON.parse),
// the child would run out of heap: the heap is capped well below the evidence's size.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, startHostileServer, type HostileServer } from './hostile-server.ts';

/** Evidence size: above the 64 MiB cap on a spec file (maxSpecBytes), which evidence has not; far above the heap. */
const targetBytes = 96 * 1024 * 1024;
/** The child's heap cap (MiB): enough for the CLI and one entry, not for the evidence (a string of it alone is 96 MiB). */
const heapMiB = 48;
/** Entries of the API between the filler; the last one closes the file, so counting them proves it was read whole. */
const realEntries = 50;

const filler = 'x'.repeat(60 * 1024);
const fillerCount = Math.ceil(targetBytes / filler.length);
/** Where the real entries go among the fillers: spread evenly, the last after the last filler. */
const realEvery = Math.floor(fillerCount / (realEntries - 1));

/** The pieces of a document, in order, so neither the file nor the answer is ever built whole here either. */
function* pieces(opening: string, real: string, fake: string, closing: string): Generator<string> {
  yield opening;
  let written = 0;
  for (let i = 0; i < fillerCount; i += 1) {
    if (i % realEvery === 0 && written < realEntries - 1) {
      yield `${real},`;
      written += 1;
    }
    yield `${fake},`;
  }
  for (; written < realEntries; written += 1) yield written === realEntries - 1 ? real : `${real},`;
  yield closing;
}

const reportPieces = (): Generator<string> =>
  pieces(
    '{"tool":"agent-registry-kit contract","baseUrl":"http://127.0.0.1:4010","checks":[{"id":"big","exchanges":[',
    JSON.stringify({
      request: { method: 'GET', url: 'http://127.0.0.1:4010/v1/agents/agt_1' },
      response: { status: 404, headers: {}, body: '' },
    }),
    JSON.stringify({
      request: { method: 'GET', url: 'http://127.0.0.1:4010/not-an-operation' },
      response: { status: 200, headers: {}, body: filler },
    }),
    ']}]}',
  );

const journalPieces = (): Generator<string> =>
  pieces(
    '{"capacity":9999999,"entries":[',
    JSON.stringify({ at: '2026-01-01T00:00:00.000Z', method: 'GET', path: '/v1/agents/agt_1', status: 200 }),
    JSON.stringify({
      at: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      path: '/not-an-operation',
      status: 404,
      body: filler,
    }),
    ']}',
  );

function sendPieces(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const source = journalPieces();
  const more = (): void => {
    for (;;) {
      const next = source.next();
      if (next.done) return void res.end();
      if (!res.write(next.value)) return void res.once('drain', more);
    }
  };
  more();
}

let directory = '';
let reportFile = '';
let server: HostileServer;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'agent-registry-large-'));
  reportFile = join(directory, 'large-report.json');
  const descriptor = openSync(reportFile, 'w');
  for (const piece of reportPieces()) writeSync(descriptor, piece);
  closeSync(descriptor);
  server = await startHostileServer((_req, res) => sendPieces(res));
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe(`spec-change replays ${targetBytes / 1024 / 1024} MiB of evidence under a ${heapMiB} MiB heap`, () => {
  test.each([
    ['--report', () => reportFile, /(\d+) report exchange\(s\)/],
    ['--journal', () => server.url, /(\d+) journal entr(?:y|ies)/],
  ])(
    '%s',
    async (flag, value, counted) => {
      const run = await runCli(
        'spec-change',
        ['--base', 'spec/openapi.yaml', flag, value()],
        { NODE_OPTIONS: `--max-old-space-size=${heapMiB}` },
        240_000,
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/COMPATIBLE/);
      expect(run.stdout.match(counted)?.[1]).toBe(String(realEntries));
    },
    300_000,
  );
});
