// The agreements verifier-client/invariants.ts derives from the deploy's link (`x-echoes`): what the read-back and the deploy's
// own answer must hold, so that a field both sent and answered is compared in both exchanges.
import { describe, expect, it } from 'vitest';
import { answerAgreements, readBackAgreements } from './invariants.ts';

const sent = { name: 'Alpha', category: 'trading', model: 'gpt-4', initialSupply: 1000 };
const answer = {
  agentId: 'agt_1',
  name: 'Beta',
  tokenAddress: 'So1',
  deployedAt: '2026-01-01T00:00:00Z',
  status: 'active',
};

describe('answerAgreements', () => {
  it('holds the answer to what was sent where a request and an answer field echo one field of the agent', () => {
    expect(answerAgreements(sent)).toEqual([
      {
        pointer: '/name',
        want: 'Alpha',
        kind: 'sent',
        field: '/name',
        specPointer: expect.any(String),
        origin: 'seed',
      },
    ]);
  });
});

describe('readBackAgreements', () => {
  it('compares the read-back with what was sent where both echo a field, and with the answer elsewhere', () => {
    const byPointer = new Map(readBackAgreements(sent, answer).map((a) => [a.pointer, a]));
    expect(byPointer.get('/name')).toMatchObject({ want: 'Alpha', kind: 'sent' });
    expect(byPointer.get('/agentId')).toMatchObject({ want: 'agt_1', kind: 'answered', source: '/agentId' });
    expect(byPointer.get('/description')).toMatchObject({ want: '', kind: 'default' });
  });
});
