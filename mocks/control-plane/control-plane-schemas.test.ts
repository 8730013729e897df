import { describe, expect, it } from 'vitest';
import { controlOperations, validateBody } from './control-plane-schemas.ts';

const operation = (operationId: string) => {
  const found = controlOperations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`mocks/control-plane/control-plane.yaml has no ${operationId}`);
  return found;
};

describe("queries of the control plane, read with its document by the spec's parameter reader", () => {
  it.each([
    ['defaults filled in', ['listAgents', ''], { ok: true, value: { offset: 0, limit: 100 } }],
    [
      'numbers where the schema says so',
      ['listAgents', 'offset=3&limit=7'],
      { ok: true, value: { offset: 3, limit: 7 } },
    ],
    [
      'an enum value',
      ['listAgents', 'status=paused'],
      { ok: true, value: { status: 'paused', offset: 0, limit: 100 } },
    ],
    ['a word for a number', ['listAgents', 'limit=ten'], { ok: false, paths: ['/query/limit'] }],
    ['a negative offset', ['listAgents', 'offset=-1'], { ok: false, paths: ['/query/offset'] }],
    ['over the documented maximum', ['listAgents', 'limit=1001'], { ok: false, paths: ['/query/limit'] }],
    ['a status outside the enum', ['listAgents', 'status=gone'], { ok: false, paths: ['/query/status'] }],
    ['a query on an operation without one is ignored', ['getClock', 'x=1'], { ok: true, value: {} }],
    [
      'a parameter given twice, never one of the two',
      ['listRequests', 'operation=a&operation=b'],
      { ok: false, paths: ['/query/operation'] },
    ],
    ['a required parameter missing', ['listRequests', ''], { ok: false, paths: ['/query/operation'] }],
  ] as const)('%s', (_name, [operationId, query], want) => {
    const result = operation(operationId).readParameters({ query });
    if (want.ok) expect(result.ok && result.value.query).toEqual(want.value);
    else expect(result.ok ? [] : result.errors.map((error) => error.path)).toEqual(want.paths);
  });
});

describe('bodies of the control plane, validated against its document', () => {
  it.each([
    ['a status', ['setAgentStatus', { status: 'paused' }], []],
    ['a status outside the enum', ['setAgentStatus', { status: 'gone' }], ['/status']],
    ['no seconds', ['advanceClock', {}], ['/seconds']],
    ['seconds over ten years', ['advanceClock', { seconds: 315_360_001 }], ['/seconds']],
    ['an unknown scenario setting', ['setScenarios', { latencyMs: 1, extra: true }], ['/extra']],
  ] as const)('%s', (_name, [operationId, body], paths) => {
    const result = validateBody(operation(operationId), structuredClone(body));
    expect(result.ok ? [] : result.errors.map((error) => error.path)).toEqual(paths);
  });
});
