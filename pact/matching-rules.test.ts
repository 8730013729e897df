// Matching rules of every specification read into one list; the body rule of a place found by its JSON Pointer; the
// regex matchers over an enum read as their list of literals.
import { describe, expect, it } from 'vitest';
import { bodyRuleAt, jsonPathTokens, readMatchingRules } from './matching-rules.ts';
import { literalAlternatives } from './regex-literals.ts';

describe('matching rules', () => {
  it.each([
    ['$.status', ['status']],
    ['$.tokenomics.price', ['tokenomics', 'price']],
    ["$.items[0]['odd name'][*].id", ['items', 0, 'odd name', '*', 'id']],
    ['$.performance.*', ['performance', '*']],
    ['$', []],
  ])('reads the JSON path %s', (path, tokens) => {
    expect(jsonPathTokens(path)).toEqual(tokens);
  });

  it('refuses what is not a JSON path', () => {
    expect(jsonPathTokens('status')).toBeUndefined();
    expect(jsonPathTokens('$[x')).toBeUndefined();
  });

  it('reads Pact 2 flat keys and Pact 3 categories alike', () => {
    const flat = readMatchingRules(
      { '$.body.status': { match: 'regex', regex: '^a$' }, '$.headers.Authorization': { regex: '^B' } },
      2,
    );
    const grouped = readMatchingRules(
      {
        body: { '$.status': { matchers: [{ match: 'regex', regex: '^a$' }] } },
        header: { Authorization: { matchers: [{ match: 'regex', regex: '^B' }] } },
      },
      3,
    );
    expect(flat).toEqual(grouped);
    expect(grouped[1]).toEqual({
      category: 'header',
      place: ['Authorization'],
      matchers: [{ match: 'regex', regex: '^B' }],
    });
  });

  it('finds the most specific body rule of a place', () => {
    const rules = readMatchingRules(
      {
        body: {
          '$.performance.*': { matchers: [{ match: 'type' }] },
          '$.performance.successRate': { matchers: [{ match: 'decimal' }] },
        },
      },
      3,
    );
    expect(bodyRuleAt(rules, ['performance', 'successRate'])?.matchers[0]?.match).toBe('decimal');
    expect(bodyRuleAt(rules, ['performance', 'tasksCompleted'])?.matchers[0]?.match).toBe('type');
    expect(bodyRuleAt(rules, ['status'])).toBeUndefined();
  });

  it.each([
    ['^(active|paused|deprecated)$', ['active', 'paused', 'deprecated']],
    ['queued|failed', ['queued', 'failed']],
    ['^(?:gpt-4|gpt-3\\.5-turbo)$', ['gpt-4', 'gpt-3.5-turbo']],
    ['^[a-z]+$', undefined],
    ['^act.ve$', undefined],
    ['^\\w+$', undefined],
    ['^(a|(b|c))$', undefined],
  ])('reads the literals of %s', (regex, values) => {
    expect(literalAlternatives(regex)).toEqual(values);
  });
});
