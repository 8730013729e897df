// A page of another site may call /v1 (CORS `*`, and the default JWT secret is public, so it can mint a token), but
// what it makes the fake answer is never the developer's record: no journal line, no coverage count, no pact exchange.
import { beforeEach, describe, expect, it } from 'vitest';
import { mintToken } from './auth.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { createMockCore, type MockCore } from '../../assembly/mock-core.ts';
import { silentLogger } from '../../domain/logger.ts';
import type { CorsOrigins } from './cors.ts';

const DEPLOY = JSON.stringify({ name: 'Foreign bot', category: 'gaming', model: 'gpt-4', initialSupply: 10 });
let token: string;

beforeEach(async () => {
  token = await mintToken();
});

function fake(corsOrigins?: CorsOrigins): MockCore {
  return createMockCore({ seed: 7, clock: createFixedClock(0), logger: silentLogger, corsOrigins });
}

const deploy = (core: MockCore, headers: Record<string, string>, contentType = 'application/json') =>
  core.handle({
    method: 'POST',
    path: '/v1/agents/deploy',
    query: 'chosen=1',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, prefer: 'code=500', ...headers },
    body: new TextEncoder().encode(DEPLOY),
  });

const recorded = (core: MockCore) => ({
  journal: core.journal.size,
  pact: core.pact.exchanges().length,
  coverage: core.coverage.changes,
});

describe('a page of another site', () => {
  it('is answered but leaves no journal line, coverage count or pact exchange (Origin, preflighted or not)', async () => {
    const core = fake();
    const before = recorded(core);
    const answers = [
      await deploy(core, { origin: 'https://evil.example' }),
      await deploy(core, { origin: 'https://evil.example' }, 'text/plain'),
      await deploy(core, { 'sec-fetch-site': 'cross-site' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([500, 500, 500]);
    expect(answers[0]?.headers['access-control-allow-origin']).toBe('https://evil.example');
    expect(recorded(core)).toEqual(before);
  });

  it('does not displace the app: its own deploy after a foreign one is the pact exchange of its key', async () => {
    const core = fake();
    await deploy(core, { origin: 'https://evil.example' });
    await deploy(core, { origin: 'http://localhost:5173' });
    await deploy(core, {});
    expect(core.pact.exchanges().map((exchange) => exchange.query)).toEqual(['chosen=1']);
    expect(core.journal.size).toBe(2);
  });

  it('is recorded when --cors-origin names its origin, and only then', async () => {
    const core = fake(['https://app.example']);
    await deploy(core, { origin: 'https://app.example' });
    expect(core.journal.size).toBe(1);
    await deploy(core, { origin: 'https://evil.example' });
    expect(core.journal.size).toBe(1);
  });
});
