// The recording writer on its own: what one more exchange costs in bytes written once the file is large, that the file
// is whole JSON in the format spec-change and serve --from-recording read, and that a planted symlink is never followed.
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentsOfRecording } from './recorded-agents.ts';
import { type ExchangeToRecord, RecordingWriter } from './recording.ts';

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'agent-registry-kit-recording-'));
});
afterEach(() => {
  rmSync(work, { recursive: true, force: true });
});

const keep = (text: string): string => text;

function exchange(index: number, body: string): ExchangeToRecord {
  return {
    operationId: 'getAgent',
    method: 'GET',
    target: `/v1/agents/agt_${index}`,
    requestHeaders: { authorization: 'Bearer secret-token-0123456789' },
    requestBody: undefined,
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: body,
    error: undefined,
    durationMs: 1,
  };
}

/** Bytes this process has written so far (Linux): counts every write, whatever file or call made it. */
function bytesWritten(): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
}

describe('RecordingWriter', () => {
  it('writes each exchange for its own bytes, whatever the file holds, and a dropped one for a few bytes', () => {
    const file = join(work, 'recording.json');
    const limit = 200;
    const writer = new RecordingWriter(file, 'https://staging.example.com', { limit });
    writer.flush();
    const body = 'x'.repeat(60_000);
    const costs: number[] = [];
    for (let index = 0; index < limit + 100; index += 1) {
      const before = bytesWritten();
      writer.add(exchange(index, body), keep);
      // What the proxy does at the latest a moment after each exchange, and at stop.
      writer.flush();
      costs.push(bytesWritten() - before);
    }
    // 200 × 60 KB is a 12 MB file: rewriting it whole, even once per exchange, shows here.
    expect(statSync(file).size).toBeGreaterThan(limit * body.length);
    expect(Math.max(...costs.slice(0, limit))).toBeLessThan(2 * body.length);
    expect(Math.max(...costs.slice(limit))).toBeLessThan(256);
    const recording = JSON.parse(readFileSync(file, 'utf8')) as {
      dropped: number;
      exchanges: unknown[];
      limit: number;
    };
    expect(recording.exchanges).toHaveLength(limit);
    expect(recording.dropped).toBe(100);
    expect(recording.limit).toBe(limit);
  });

  it('is whole JSON in the recording format after every exchange, credentials hidden', () => {
    const file = join(work, 'recording.json');
    const writer = new RecordingWriter(file, 'https://staging.example.com', { limit: 2 });
    writer.flush();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ dropped: 0, exchanges: [] });
    for (let index = 0; index < 4; index += 1) {
      writer.add(exchange(index, '{"agentId":"agt_1"}'), keep);
      const recording = JSON.parse(readFileSync(file, 'utf8')) as { dropped: number; exchanges: unknown[] };
      expect(recording.exchanges).toHaveLength(Math.min(index + 1, 2));
      expect(recording.dropped).toBe(Math.max(0, index - 1));
    }
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('secret-token');
    expect(() => agentsOfRecording(JSON.parse(text))).not.toThrow();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('never opens a symlink planted where a temporary file could be, and replaces one planted at the file itself', () => {
    const victim = join(work, 'victim.txt');
    writeFileSync(victim, 'keep me', { mode: 0o644 });
    const file = join(work, 'recording.json');
    // Every name the writer could guess without randomness: the pid-named one it used, and the file itself.
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    symlinkSync(victim, file);
    const writer = new RecordingWriter(file, 'https://staging.example.com');
    writer.flush();
    writer.add(exchange(1, '{}'), keep);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ exchanges: [{ operationId: 'getAgent' }] });
    // The temporary file was renamed into place: nothing is left beside it.
    expect(readdirSync(work).sort()).toEqual(['recording.json', `recording.json.${process.pid}.tmp`, 'victim.txt']);
  });
});
