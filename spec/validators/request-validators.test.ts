import { describe, expect, expectTypeOf, it } from 'vitest';
import { validatePathParameter, validateRequestBody } from './request-validators.ts';

const deploy = { name: 'Solana Momentum Trader', category: 'trading', model: 'gpt-4', initialSupply: 1_000_000 };
const execute = { task: 'Summarise the order flow' };

describe('validateRequestBody', () => {
  it.each([
    [
      'deploy with only the required fields',
      { given: ['deployAgent', deploy], want: { ...deploy, pricePerToken: 0.01, revenueShare: 0 } },
    ],
    [
      'deploy with every field',
      {
        given: [
          'deployAgent',
          { ...deploy, description: 'd', capabilities: ['a'], pricePerToken: 0.5, revenueShare: 1 },
        ],
        want: { ...deploy, description: 'd', capabilities: ['a'], pricePerToken: 0.5, revenueShare: 1 },
      },
    ],
    [
      'deploy with revenueShare 0',
      {
        given: ['deployAgent', { ...deploy, revenueShare: 0 }],
        want: { ...deploy, pricePerToken: 0.01, revenueShare: 0 },
      },
    ],
    [
      'deploy with an unknown field, which is ignored',
      {
        given: ['deployAgent', { ...deploy, colour: 'blue' }],
        want: { ...deploy, colour: 'blue', pricePerToken: 0.01, revenueShare: 0 },
      },
    ],
    ['execute with only the task', { given: ['executeAgentTask', execute], want: { ...execute, priority: 'normal' } }],
    [
      'execute with free-form parameters',
      {
        given: ['executeAgentTask', { ...execute, parameters: { a: [1, { b: null }] }, priority: 'high' }],
        want: { ...execute, parameters: { a: [1, { b: null }] }, priority: 'high' },
      },
    ],
  ] as const)('accepts %s and applies the spec defaults', (_, { given, want }) => {
    const result = validateRequestBody(given[0], given[1]);
    expect(result).toEqual({ ok: true, value: want });
  });

  it('types the defaulted fields as always set once validated', () => {
    const result = validateRequestBody('executeAgentTask', execute);
    if (result.ok) expectTypeOf(result.value.priority).toEqualTypeOf<'low' | 'normal' | 'high'>();
    expect(result.ok).toBe(true);
  });

  it("never changes the caller's value", () => {
    const body = { ...deploy };
    validateRequestBody('deployAgent', body);
    expect(body).toEqual(deploy);
  });

  it("fills the defaults into the caller's value itself with clone: false", () => {
    const body = { ...execute };
    const result = validateRequestBody('executeAgentTask', body, { clone: false });
    expect(result.ok && result.value).toBe(body);
    expect(body).toEqual({ ...execute, priority: 'normal' });
  });

  it.each([
    [
      'a missing name',
      { given: ['deployAgent', { ...deploy, name: undefined }], want: [{ path: '/name', message: 'is required' }] },
    ],
    [
      'a missing category',
      {
        given: ['deployAgent', { ...deploy, category: undefined }],
        want: [{ path: '/category', message: 'is required' }],
      },
    ],
    [
      'a missing model',
      { given: ['deployAgent', { ...deploy, model: undefined }], want: [{ path: '/model', message: 'is required' }] },
    ],
    [
      'a missing initialSupply',
      {
        given: ['deployAgent', { ...deploy, initialSupply: undefined }],
        want: [{ path: '/initialSupply', message: 'is required' }],
      },
    ],
    ['a missing task', { given: ['executeAgentTask', {}], want: [{ path: '/task', message: 'is required' }] }],
    [
      'a category outside the enum',
      {
        given: ['deployAgent', { ...deploy, category: 'lending' }],
        want: [
          { path: '/category', message: 'must be one of trading, analytics, social, gaming, defi, nft, automation' },
        ],
      },
    ],
    [
      'a model outside the enum',
      {
        given: ['deployAgent', { ...deploy, model: 'gpt-5' }],
        want: [{ path: '/model', message: 'must be one of gpt-4, gpt-3.5-turbo, claude-3, llama-2' }],
      },
    ],
    [
      'a priority outside the enum',
      {
        given: ['executeAgentTask', { ...execute, priority: 'urgent' }],
        want: [{ path: '/priority', message: 'must be one of low, normal, high' }],
      },
    ],
    [
      'revenueShare -0.01',
      {
        given: ['deployAgent', { ...deploy, revenueShare: -0.01 }],
        want: [{ path: '/revenueShare', message: 'must be >= 0' }],
      },
    ],
    [
      'revenueShare 1.01',
      {
        given: ['deployAgent', { ...deploy, revenueShare: 1.01 }],
        want: [{ path: '/revenueShare', message: 'must be <= 1' }],
      },
    ],
    [
      'a pricePerToken whose market cap would not be a finite number',
      {
        given: ['deployAgent', { ...deploy, initialSupply: 1e15, pricePerToken: 1e300 }],
        want: [{ path: '/pricePerToken', message: 'must be <= 1000000000' }],
      },
    ],
    [
      'initialSupply 0',
      {
        given: ['deployAgent', { ...deploy, initialSupply: 0 }],
        want: [{ path: '/initialSupply', message: 'must be > 0' }],
      },
    ],
    [
      'initialSupply as a string',
      {
        given: ['deployAgent', { ...deploy, initialSupply: '1000' }],
        want: [{ path: '/initialSupply', message: 'must be a number' }],
      },
    ],
    [
      'a name as a number',
      { given: ['deployAgent', { ...deploy, name: 42 }], want: [{ path: '/name', message: 'must be a string' }] },
    ],
    [
      'capabilities as a string',
      {
        given: ['deployAgent', { ...deploy, capabilities: 'trading' }],
        want: [{ path: '/capabilities', message: 'must be an array' }],
      },
    ],
    [
      'a capability that is not a string',
      {
        given: ['deployAgent', { ...deploy, capabilities: ['ok', 3] }],
        want: [{ path: '/capabilities/1', message: 'must be a string' }],
      },
    ],
    [
      'parameters as an array',
      {
        given: ['executeAgentTask', { ...execute, parameters: [] }],
        want: [{ path: '/parameters', message: 'must be an object' }],
      },
    ],
    [
      'an empty task',
      {
        given: ['executeAgentTask', { task: '' }],
        want: [{ path: '/task', message: 'must NOT have fewer than 1 characters' }],
      },
    ],
    ['null instead of a body', { given: ['deployAgent', null], want: [{ path: '', message: 'must be an object' }] }],
    [
      'an array instead of a body',
      { given: ['executeAgentTask', [execute]], want: [{ path: '', message: 'must be an object' }] },
    ],
  ] as const)('rejects %s with a pointer to the bad field', (_, { given, want }) => {
    const body =
      given[1] && typeof given[1] === 'object' && !Array.isArray(given[1])
        ? JSON.parse(JSON.stringify(given[1]))
        : given[1];
    expect(validateRequestBody(given[0], body)).toEqual({ ok: false, errors: want });
  });

  it('lists every violation at once', () => {
    const result = validateRequestBody('deployAgent', {
      category: 'x',
      model: 'y',
      initialSupply: -1,
      revenueShare: 2,
    });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors.map((e) => e.path).sort()).toEqual([
      '/category',
      '/initialSupply',
      '/model',
      '/name',
      '/revenueShare',
    ]);
  });
});

describe('validatePathParameter', () => {
  it.each([
    ['a short opaque id', { given: 'agt_7Qm2xK9pLr4TnW8v', want: true }],
    ['128 characters', { given: 'a'.repeat(128), want: true }],
    ['129 characters', { given: 'a'.repeat(129), want: false }],
    ['the empty string', { given: '', want: false }],
  ])('%s', (_, { given, want }) => {
    const result = validatePathParameter('getAgent', 'agentId', given);
    expect(result.ok).toBe(want);
    if (!result.ok) expect(result.errors[0]?.path).toBe('/path/agentId');
  });
});
