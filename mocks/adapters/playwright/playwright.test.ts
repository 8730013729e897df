// The Playwright fixture's session ids: unique per test run, and always ids the fake accepts (the fixture itself runs in
// test/consumer's Playwright run, against the packed kit).
import { describe, expect, it } from 'vitest';
import { openMockSession, sessionIdFor } from './playwright.ts';
import { startMockServer } from '../node-http/http-server.ts';
import { silentLogger } from '../../domain/logger.ts';
import { sessionIdProblem } from '../../core/sessions/sessions.ts';

describe('sessionIdFor', () => {
  it('names each test, repeat and retry apart', () => {
    const ids = new Set([
      sessionIdFor({ testId: 'a1b2c3-d4e5f6', repeatEachIndex: 0, retry: 0 }),
      sessionIdFor({ testId: 'a1b2c3-d4e5f6', repeatEachIndex: 0, retry: 1 }),
      sessionIdFor({ testId: 'a1b2c3-d4e5f6', repeatEachIndex: 1, retry: 0 }),
      sessionIdFor({ testId: 'a1b2c3-d4e5f7', repeatEachIndex: 0, retry: 0 }),
    ]);
    expect(ids.size).toBe(4);
  });

  it.each([
    ['a short hex id', 'a1b2c3d4e5f6a7b8c9d0-e1f2a3b4c5d6e7f8a9b0'],
    ['a very long id', 'f'.repeat(200)],
    ['characters a header or cookie cannot carry', 'ab cd;é/=,'],
  ])('gives an id the fake accepts for %s', (_name, testId) => {
    const id = sessionIdFor({ testId, repeatEachIndex: 12, retry: 3 });
    expect(sessionIdProblem(id)).toBeUndefined();
    expect(id.endsWith('-12-3')).toBe(true);
  });
});

describe('openMockSession against a fake without sessions', () => {
  it('fails with a line that names the fixture option turning sessions off', async () => {
    const fake = await startMockServer({ port: 0, sessions: false, logger: silentLogger });
    try {
      const opened = openMockSession({ url: fake.url, id: 'pw-a-0-0', controlToken: undefined });
      await expect(opened).rejects.toThrow(/runs without sessions .*use: \{ mockSessions: false \}/);
      const shared = await openMockSession({ url: fake.url, id: undefined, controlToken: undefined });
      expect(shared.session.id).toBeUndefined();
    } finally {
      await fake.close();
    }
  });
});

describe('openMockSession’s token', () => {
  it('is a bearer token the fake accepts, signed with the fake’s own secret', async () => {
    const fake = await startMockServer({ port: 0, jwtSecret: 'a-secret-of-this-fake', logger: silentLogger });
    try {
      const { session, close } = await openMockSession({
        url: fake.url,
        id: 'pw-token-0-0',
        controlToken: undefined,
        jwtSecret: 'a-secret-of-this-fake',
      });
      const read = (token: string) =>
        fetch(`${fake.url}/v1/agents/agt_WCC01FaiMscDbRzp`, {
          headers: { ...session.headers, authorization: `Bearer ${token}` },
        });
      expect((await read(session.token)).status).toBe(200);
      const other = await openMockSession({ url: fake.url, id: 'pw-token-1-0', controlToken: undefined });
      expect((await read(other.session.token)).status).toBe(401);
      await Promise.all([close(), other.close()]);
    } finally {
      await fake.close();
    }
  });
});
