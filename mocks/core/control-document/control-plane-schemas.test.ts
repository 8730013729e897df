import { describe, expect, it } from 'vitest';
import { controlOperations, validateBody } from './control-plane-schemas.ts';

const operation = (operationId: string) => {
  const found = controlOperations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`mocks/control-plane/control-plane.yaml has no ${operationId}`);
  return found;
};

describe("queries of the control plane, read with its document by the spec's parameter reader", () => {
  it.each([
    ['defaults filled in', ['mockListAgents', ''], { ok: true, value: { offset: 0, limit: 100 } }],
    [
      'numbers where the schema says so',
      ['mockListAgents', 'offset=3&limit=7'],
      { ok: true, value: { offset: 3, limit: 7 } },
    ],
    [
      'an enum value',
      ['mockListAgents', 'status=paused'],
      { ok: true, value: { status: 'paused', offset: 0, limit: 100 } },
    ],
    ['a word for a number', ['mockListAgents', 'limit=ten'], { ok: false, paths: ['/query/limit'] }],
    ['a negative offset', ['mockListAgents', 'offset=-1'], { ok: false, paths: ['/query/offset'] }],
    ['over the documented maximum', ['mockListAgents', 'limit=1001'], { ok: false, paths: ['/query/limit'] }],
    ['a status outside the enum', ['mockListAgents', 'status=gone'], { ok: false, paths: ['/query/status'] }],
    ['a query on an operation without one is ignored', ['mockGetClock', 'x=1'], { ok: true, value: {} }],
    [
      'a parameter given twice, never one of the two',
      ['mockListRequests', 'operation=a&operation=b'],
      { ok: false, paths: ['/query/operation'] },
    ],
    ['a required parameter missing', ['mockListRequests', ''], { ok: false, paths: ['/query/operation'] }],
    // A seq or an offset past what a number holds exactly (1e20, 1e400: Infinity) would be compared as a float.
    ['an offset past the exact integers', ['mockListAgents', 'offset=1e20'], { ok: false, paths: ['/query/offset'] }],
    [
      'a seq past the exact integers',
      ['mockListRequests', 'operation=deployAgent&after=1e400'],
      { ok: false, paths: ['/query/after'] },
    ],
    [
      'the largest exact seq',
      ['mockListRequests', 'operation=deployAgent&after=9007199254740991'],
      { ok: true, value: { operation: 'deployAgent', after: 9007199254740991 } },
    ],
    // A pact's participant names end up in a file name and a report: no control characters.
    [
      'a pact consumer holding a control character',
      ['mockGetPact', 'consumer=%00&provider=registry'],
      { ok: false, paths: ['/query/consumer'] },
    ],
    [
      'a pact provider holding a control character',
      ['mockGetPact', 'consumer=web&provider=a%1Bb'],
      { ok: false, paths: ['/query/provider'] },
    ],
    [
      'pact participants in any script',
      ['mockGetPact', 'consumer=%E7%BD%91&provider=registry'],
      { ok: true, value: { consumer: '网', provider: 'registry', version: 4 } },
    ],
  ] as const)('%s', (_name, [operationId, query], want) => {
    const result = operation(operationId).readParameters({ query });
    if (want.ok) expect(result.ok && result.value.query).toEqual(want.value);
    else expect(result.ok ? [] : result.errors.map((error) => error.path)).toEqual(want.paths);
  });
});

describe('bodies of the control plane, validated against its document', () => {
  it.each([
    ['a status', ['mockSetAgentStatus', { status: 'paused' }], []],
    ['a status outside the enum', ['mockSetAgentStatus', { status: 'gone' }], ['/status']],
    ['no seconds', ['mockAdvanceClock', {}], ['/seconds']],
    ['seconds over ten years', ['mockAdvanceClock', { seconds: 315_360_001 }], ['/seconds']],
    ['an unknown scenario setting', ['mockSetScenarios', { latencyMs: 1, extra: true }], ['/extra']],
  ] as const)('%s', (_name, [operationId, body], paths) => {
    const result = validateBody(operation(operationId), structuredClone(body));
    expect(result.ok ? [] : result.errors.map((error) => error.path)).toEqual(paths);
  });
});
