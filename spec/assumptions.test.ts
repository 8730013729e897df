import { describe, expect, it } from 'vitest';
import { assumptions, readAssumptions } from './assumptions.ts';
import { getAtPointer, isJsonObject } from './json-pointer.ts';
import { ruleOrigin } from './rule-origin.ts';
import { openapiDocument } from './openapi-document.generated.ts';

// Every decision the contract issue lists must be findable in the reviewer's checklist, at the node it touches.
describe('assumptions', () => {
  it('are the ones the document holds now (generated at build time, read the same way)', () => {
    expect(assumptions).toEqual(readAssumptions(openapiDocument));
    expect(assumptions.length).toBeGreaterThan(10);
  });

  it.each([
    [
      'rejected authentication is 401 with a Bearer challenge',
      { pointer: '/components/responses/Unauthorized', text: /401/ },
    ],
    ['the challenge header', { pointer: '/components/headers/WWW-Authenticate', text: /Bearer/ }],
    ['errors are RFC 9457 problems', { pointer: '/components/schemas/Problem', text: /RFC 9457/ }],
    [
      'validation errors list path and message',
      { pointer: '/components/schemas/ValidationError', text: /JSON Pointer/ },
    ],
    ['400 for malformed or invalid bodies', { pointer: '/components/responses/BadRequest', text: /400/ }],
    ['404 for an unknown agent', { pointer: '/components/responses/AgentNotFound', text: /404/ }],
    ['409 for a paused or deprecated agent', { pointer: '/components/responses/AgentNotActive', text: /409/ }],
    ['413 above 1 MiB', { pointer: '/components/responses/PayloadTooLarge', text: /1 MiB/ }],
    ['415 for a body that is not JSON', { pointer: '/components/responses/UnsupportedMediaType', text: /415/ }],
    ['429 with Retry-After', { pointer: '/components/responses/TooManyRequests', text: /429 with Retry-After/ }],
    ['500 with a problem body', { pointer: '/components/responses/InternalServerError', text: /500/ }],
    [
      'every response field is always present',
      { pointer: '/components/schemas/Agent', text: /always present and never null/ },
    ],
    ['the deploy record', { pointer: '/paths/~1v1~1agents~1deploy/post', text: /deploy/ }],
    ['the price default', { pointer: '/components/schemas/DeployRequest/properties/pricePerToken', text: /0.01/ }],
    [
      'the revenueShare default',
      { pointer: '/components/schemas/DeployRequest/properties/revenueShare', text: /default/ },
    ],
    [
      'marketCap = price × circulatingSupply',
      { pointer: '/components/schemas/Tokenomics/properties/marketCap', text: /price × circulatingSupply/ },
    ],
    ['holders start at 1', { pointer: '/components/schemas/DeployResult/properties/holders', text: /first holder/ }],
    ['the creator is the JWT sub', { pointer: '/components/schemas/Agent/properties/creator', text: /sub/ }],
    [
      'initialSupply > 0',
      { pointer: '/components/schemas/DeployRequest/properties/initialSupply', text: /more than 0/ },
    ],
    [
      'successRate is a ratio',
      { pointer: '/components/schemas/Performance/properties/successRate', text: /ratio in 0\.\.1/ },
    ],
    [
      'tasksCompleted is a non-negative integer',
      { pointer: '/components/schemas/Performance/properties/tasksCompleted', text: /non-negative integer/ },
    ],
    [
      'priceChange24h is a signed percentage',
      { pointer: '/components/schemas/Statistics/properties/priceChange24h', text: /signed percentage/ },
    ],
    ['agentId is opaque', { pointer: '/components/schemas/AgentId', text: /opaque/ }],
    ['taskId is opaque', { pointer: '/components/schemas/TaskId', text: /opaque/ }],
    ['tokenAddress is base58', { pointer: '/components/schemas/TokenAddress', text: /base58 Solana/ }],
    ['unknown request fields are ignored', { pointer: '/components/schemas/DeployRequest', text: /ignored/ }],
    ['bounds on names', { pointer: '/components/schemas/DeployRequest/properties/name', text: /1 to 100/ }],
    ['task transitions', { pointer: '/components/schemas/TaskStatus', text: /queued → processing/ }],
    ['agent transitions', { pointer: '/components/schemas/AgentStatus', text: /active/ }],
    ['token issuance and scopes', { pointer: '/components/securitySchemes/bearerAuth', text: /scopes/ }],
  ])('records %s', (_, { pointer, text }) => {
    const entry = assumptions.find((a) => a.pointer === pointer);
    expect(entry, pointer).toBeDefined();
    expect(`${entry?.decision} ${entry?.reason}`).toMatch(text);
  });

  it('lists every x-assumption in the document once, with a decision and a one-line reason', () => {
    const count = (JSON.stringify(openapiDocument).match(/"x-assumption":/g) ?? []).length;
    expect(assumptions).toHaveLength(count);
    expect(new Set(assumptions.map((a) => a.pointer)).size).toBe(count);
    for (const assumption of assumptions) {
      expect(assumption.reason, assumption.pointer).not.toMatch(/\n/);
      expect(assumption.decision.length, assumption.pointer).toBeGreaterThan(0);
    }
  });

  it('names as seed members only members of the keyword they qualify, and only where that keyword is assumed', () => {
    const nodes: Array<[string, unknown]> = [];
    const walk = (value: unknown, pointer: string): void => {
      if (typeof value !== 'object' || value === null) return;
      for (const [key, child] of Object.entries(value)) {
        if (key.startsWith('x-seed-')) nodes.push([`${pointer}/${key}`, child]);
        walk(child, `${pointer}/${key}`);
      }
    };
    walk(openapiDocument, '');
    expect(nodes.map(([pointer]) => pointer)).toContain('/components/schemas/Agent/x-seed-required');
    for (const [pointer, members] of nodes) {
      const node = pointer.replace(/\/x-seed-[^/]+$/, '');
      const keyword = pointer.replace(/^.*\/x-seed-/, '');
      const listed = getAtPointer(openapiDocument, `${node}/x-assumed-keywords`);
      expect(Array.isArray(listed) && listed.includes(keyword), pointer).toBe(true);
      const values = getAtPointer(openapiDocument, `${node}/${keyword}`);
      expect(Array.isArray(members), pointer).toBe(true);
      for (const member of Array.isArray(members) ? members : []) expect(values, pointer).toContain(member);
    }
  });

  it('names only keywords that exist at their node', () => {
    for (const { pointer } of assumptions) {
      const listed = getAtPointer(openapiDocument, `${pointer}/x-assumed-keywords`);
      if (!Array.isArray(listed)) continue;
      for (const keyword of listed) {
        expect(
          getAtPointer(openapiDocument, `${pointer}/${String(keyword)}`),
          `${pointer} ${String(keyword)}`,
        ).toBeDefined();
      }
    }
  });
});

describe('the results of deploy (2.2) and task submission (2.3)', () => {
  // The description lists their fields without 2.1's caveat: each member of `required` is the seed's, not an assumption.
  it.each(['DeployResult', 'TaskSubmission'])('%s requires every listed field, each as seed', (name) => {
    const pointer = `/components/schemas/${name}/required`;
    const required = getAtPointer(openapiDocument, pointer);
    const properties = getAtPointer(openapiDocument, `/components/schemas/${name}/properties`);
    expect(required).toEqual(Object.keys(isJsonObject(properties) ? properties : {}));
    for (const member of Array.isArray(required) ? required : []) {
      expect(ruleOrigin(pointer, undefined, String(member)), String(member)).toBe('seed');
    }
  });
});
