// The pact log's bounds: kept across resets, so bounded in bytes as well as in exchanges.
import { describe, expect, it } from 'vitest';
import { PactLog } from './pact-log.ts';

const padded = (size: number): string => `[${'{},'.repeat(Math.floor((size - 4) / 3))}{}]`;

describe('PactLog', () => {
  it('holds at most its documented 32 MiB: bodies of 64 KiB on both sides under 256 keys stop at the bound', () => {
    const log = new PactLog();
    const request = padded(64 * 1024 - 8);
    const response = padded(64 * 1024 - 8);
    for (let index = 0; index < 256; index += 1)
      log.record(
        {
          method: 'POST',
          path: '/v1/agents/deploy',
          query: `q=${'x'.repeat(2000)}`,
          headers: { 'content-type': 'application/json' },
          body: new TextEncoder().encode(request),
        },
        { status: 201, headers: { 'content-type': 'application/json' }, body: response },
        { operationId: 'deployAgent', stateName: `state ${index}`, state: () => undefined },
      );
    expect(log.bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(log.exchanges().length).toBeLessThan(256);
    expect(log.exchanges()[0]?.responseBody).toHaveLength(Math.floor((64 * 1024 - 12) / 3) + 1);
  });
});
