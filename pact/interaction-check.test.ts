// One interaction against the spec, read as Pact means it: what the pact leaves out is no claim, what it adds beyond the
// spec is; a matcher's value is an example, and a finding says which matcher is over it.
import { describe, expect, it } from 'vitest';
import { checkInteraction, MAX_MATCHER_LOOKUPS } from './interaction-check.ts';
import { MAX_MATCHING_RULES } from './matching-rules.ts';
import { parsePact } from './pact-file.ts';

const jwt = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1bml0In0.c2lnbmF0dXJl';

/** A Pact 3 file of one interaction: GET an agent, answered as `response` says. */
function interaction(request: Record<string, unknown>, response: Record<string, unknown>) {
  const pact = parsePact(
    JSON.stringify({
      consumer: { name: 'web' },
      provider: { name: 'agent-registry' },
      interactions: [
        {
          description: 'd',
          request: { method: 'GET', path: '/v1/agents/agt_1', headers: { Authorization: jwt }, ...request },
          response,
        },
      ],
      metadata: { pactSpecification: { version: '3.0.0' } },
    }),
  );
  const [first] = pact.interactions;
  if (first === undefined) throw new Error('no interaction');
  return checkInteraction(first);
}

const rules = (check: ReturnType<typeof checkInteraction>) => check.findings.map((finding) => finding.rule);

describe('checkInteraction', () => {
  it('takes a response without its required fields, headers, body or Content-Type as no claim about them', () => {
    const json = { headers: { 'Content-Type': 'application/json' } };
    expect(interaction({}, { status: 200, ...json, body: { status: 'paused' } })).toEqual({
      operationId: 'getAgent',
      findings: [],
    });
    // A 401's WWW-Authenticate is required by the spec; a pact that does not read it claims nothing about it.
    expect(interaction({}, { status: 401, headers: { 'Content-Type': 'application/problem+json' } }).findings).toEqual(
      [],
    );
    expect(interaction({}, { status: 200 }).findings).toEqual([]);
    expect(interaction({}, { status: 200, body: { status: 'paused' } }).findings).toEqual([]);
  });

  it('takes a bad request answered with the refusal the spec documents as what the interaction shows', () => {
    const problem = { headers: { 'Content-Type': 'application/problem+json' } };
    const emptyTask = {
      method: 'POST',
      path: '/v1/agents/agt_1/execute',
      headers: { Authorization: jwt, 'Content-Type': 'application/json' },
      body: { task: '' },
    };
    expect(interaction(emptyTask, { status: 400, ...problem }).findings).toEqual([]);
    expect(rules(interaction(emptyTask, { status: 200 }))).toEqual(['request-body-schema']);
    const noToken = { headers: {} };
    expect(interaction(noToken, { status: 401, ...problem }).findings).toEqual([]);
    // The wrong refusal is still a finding: a missing token is answered 401, not 400.
    expect(rules(interaction(noToken, { status: 400, ...problem }))).toEqual(['request-credentials']);
  });

  it('takes a field the spec lacks as one the provider never promised', () => {
    const check = interaction(
      {},
      { status: 200, headers: { 'Content-Type': 'application/json' }, body: { tier: 'gold' } },
    );
    expect(check.findings).toMatchObject([
      { part: 'response', rule: 'undocumented-field', pointer: '/tier', origin: 'seed' },
    ]);
  });

  it('names the matcher over a value it finds wrong: a body place, a header, the Authorization example', () => {
    const body = interaction(
      {},
      {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'RateLimit-Remaining': 'many' },
        body: { statistics: { holders: -1 } },
        matchingRules: {
          body: { '$.statistics.*': { matchers: [{ match: 'type' }] } },
          header: { 'RateLimit-Remaining': { matchers: [{ match: 'regex', regex: '^.+$' }] } },
        },
      },
    );
    expect(body.findings.map((finding) => [finding.pointer, finding.matcher])).toEqual([
      ['/headers/ratelimit-remaining', 'regex ^.+$'],
      ['/statistics/holders', 'type'],
    ]);
    const credential = interaction(
      {
        headers: { Authorization: 'Bearer not-a-jwt' },
        matchingRules: { header: { Authorization: { matchers: [{ match: 'regex', regex: '^Bearer .+$' }] } } },
      },
      { status: 200 },
    );
    expect(credential.findings).toMatchObject([
      { rule: 'request-credentials', found: 'a Bearer token that is not a JWT', matcher: 'regex ^Bearer .+$' },
    ]);
    expect(rules(interaction({ headers: {} }, { status: 200 }))).toEqual(['request-credentials']);
  });

  it('refuses a regex matcher over an enum that accepts a value the enum lacks, and only then', () => {
    const withRegex = (regex: string) =>
      interaction(
        {},
        {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
          body: { status: 'paused' },
          matchingRules: { body: { '$.status': { matchers: [{ match: 'regex', regex }] } } },
        },
      );
    expect(rules(withRegex('^(active|paused)$'))).toEqual([]);
    expect(rules(withRegex('^[a-z]+$'))).toEqual([]);
    expect(withRegex('^(paused|archived)$').findings).toMatchObject([
      {
        rule: 'matcher-within-enum',
        pointer: '/status',
        found: '"archived"',
        specPointer: '/components/schemas/AgentStatus/enum',
      },
    ]);
  });

  it('names what is no operation of the spec, and checks nothing of an interaction that is not HTTP', () => {
    expect(interaction({ method: 'PUT' }, { status: 200 }).findings).toMatchObject([
      {
        rule: 'operation-documented',
        message: 'PUT /v1/agents/agt_1 is not an operation of the spec (the path is, with other methods)',
      },
    ]);
    const message = parsePact(
      JSON.stringify({
        consumer: { name: 'c' },
        provider: { name: 'p' },
        interactions: [{ type: 'Asynchronous/Messages', description: 'an event', contents: {} }],
      }),
    ).interactions[0];
    expect(message && checkInteraction(message)).toEqual({ operationId: undefined, findings: [] });
  });
});

describe('checkInteraction on bodies a pact shapes against the checker', () => {
  const nested = (depth: number): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < depth; level += 1) value = [value];
    return value;
  };
  const answered = (body: unknown) =>
    interaction({}, { status: 200, headers: { 'Content-Type': 'application/json' }, body });

  it('makes each of 400,000 wrong items a finding (the first 100,000 values), not a crash', () => {
    const check = answered({ agentId: 'agt_1', capabilities: Array.from({ length: 400_000 }, () => 1) });
    expect(check.findings.length).toBeGreaterThan(99_000);
    expect(check.findings.map((finding) => finding.pointer)).toContain('/capabilities/0');
  });

  it('checks a body nesting the kit-wide 64 levels, and makes one deeper a single finding', () => {
    const atCap = answered({ agentId: 'agt_1', capabilities: nested(63) });
    expect(atCap.findings.map((finding) => finding.pointer)).toEqual(['/capabilities/0']);
    const deeper = answered({ agentId: 'agt_1', capabilities: nested(64) });
    expect(deeper.findings).toEqual([expect.objectContaining({ rule: 'body-is-json', pointer: '' })]);
  });

  it('names the matcher of the first 100 findings of a side only: 400 wrong items under 10,000 rules is no product of both', () => {
    const body: Record<string, unknown> = {
      '$.capabilities': { matchers: [{ match: 'type' }] },
      '$.capabilities[*]': { matchers: [{ match: 'type' }] },
    };
    for (let index = 2; index < MAX_MATCHING_RULES; index += 1)
      body[`$.other${index}`] = { matchers: [{ match: 'type' }] };
    const check = interaction(
      {},
      {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: { agentId: 'agt_1', capabilities: Array.from({ length: 400 }, () => 1) },
        matchingRules: { body },
      },
    );
    expect(check.findings.length).toBeGreaterThanOrEqual(400);
    expect(check.findings.filter((finding) => finding.matcher !== undefined)).toHaveLength(MAX_MATCHER_LOOKUPS);
    expect(check.findings[0]?.matcher).toBe('type');
  });
});
