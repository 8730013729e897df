// The rule and origin of a violation at every depth of a schema: inside array items, through `$ref` chains, in
// `allOf`/`oneOf`/`anyOf` branches, under `additionalProperties` and `prefixItems`, in nested arrays. A small fixture
// document (compiled at run time) and the same schemas as ajv's standalone code (as tools/generate.ts writes them)
// must name the keyword of the schema node that failed, with that node's own origin.
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../json-pointer.ts';
import { addDocumentSchemas, ajvOptions, schemaId } from './ajv-instance.ts';
import type { SchemaValidator } from './ajv-setup.ts';
import { errorRule, errorRules } from './field-errors.ts';
import { getSchemaValidator, rootSchemaPointer } from './schema-compiler.ts';

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

/** Every schema but Tokenomics refers to another, so ajv compiles them apart and their schemaPath restarts at `#`. */
const fixture: JsonObject = {
  openapi: '3.1.0',
  info: { title: 'depth fixture', version: '1' },
  paths: {},
  components: {
    schemas: {
      Catalog: {
        type: 'object',
        'x-assumption': 'The catalog is a decision of the spec: every rule of its own node is assumed.',
        properties: {
          page: ref('AgentPage'),
          holder: ref('Holder'),
          priced: ref('Priced'),
          pet: ref('Pet'),
          contact: { anyOf: [ref('Email'), ref('Phone')] },
          labels: { type: 'object', additionalProperties: ref('Label') },
          pair: { type: 'array', prefixItems: [{ type: 'string' }, ref('Agent')], minItems: 2, items: false },
          grid: { type: 'array', items: { type: 'array', items: ref('Agent') } },
          counts: { type: 'array', items: ref('Count') },
        },
      },
      AgentPage: {
        type: 'object',
        required: ['items'],
        'x-assumption': 'Pages are a decision of the spec.',
        properties: { items: { type: 'array', items: ref('Agent') }, nextCursor: { type: 'string', maxLength: 64 } },
      },
      Agent: {
        type: 'object',
        required: ['agentId', 'tokenomics'],
        'x-assumption': 'Which fields are always present is partly a decision of the spec.',
        'x-assumed-keywords': ['required'],
        'x-seed-required': ['tokenomics'],
        properties: {
          agentId: {
            type: 'string',
            maxLength: 8,
            'x-assumption': 'Ids are short.',
            'x-assumed-keywords': ['maxLength'],
          },
          tokenomics: ref('Tokenomics'),
        },
      },
      Tokenomics: { type: 'object', required: ['price'], properties: { price: { type: 'number', minimum: 0 } } },
      Holder: { type: 'object', required: ['agent'], properties: { agent: ref('AgentAlias') } },
      AgentAlias: ref('AgentRef'),
      AgentRef: ref('Agent'),
      Priced: {
        allOf: [
          ref('Tokenomics'),
          { type: 'object', required: ['currency'], properties: { currency: { enum: ['SOL'] } } },
        ],
      },
      Pet: { oneOf: [ref('Cat'), ref('Dog')] },
      Cat: {
        type: 'object',
        required: ['kind'],
        properties: { kind: { const: 'cat' }, lives: { type: 'integer', maximum: 9, 'x-assumption': 'Nine.' } },
      },
      Dog: { type: 'object', required: ['kind'], properties: { kind: { const: 'dog' }, owner: ref('Agent') } },
      Email: { type: 'string', format: 'email', maxLength: 64 },
      Phone: { type: 'string', pattern: '^\\+[0-9]+$', maxLength: 16, 'x-assumption': 'E.164.' },
      Label: { type: 'object', required: ['text'], properties: { text: ref('Text') } },
      Text: { type: 'string', maxLength: 4 },
      Count: { type: 'integer', 'x-assumption': 'Whole numbers.', 'x-assumed-keywords': ['type'] },
    },
  },
};

const agent = { agentId: 'a1', tokenomics: { price: 1 } };
const noTokenomics = { agentId: 'a2' };

type Rule = [keywordPointer: string, origin: 'seed' | 'assumption'];
const S = '/components/schemas';

/** Each case: a Catalog and every rule it breaks, by the keyword of the node that failed. */
const cases: [name: string, data: JsonValue, rules: Rule[]][] = [
  ['an item of an array (seed member)', { page: { items: [agent, noTokenomics] } }, [[`${S}/Agent/required`, 'seed']]],
  [
    'an item of an array (assumed member)',
    { page: { items: [{ tokenomics: { price: 1 } }] } },
    [[`${S}/Agent/required`, 'assumption']],
  ],
  ['the array node itself', { page: {} }, [[`${S}/AgentPage/required`, 'assumption']]],
  [
    'a $ref chain (Holder → AgentAlias → AgentRef → Agent)',
    { holder: { agent: { agentId: 5, tokenomics: { price: 1 } } } },
    [[`${S}/Agent/properties/agentId/type`, 'seed']],
  ],
  [
    'an assumed keyword at the end of a $ref chain',
    { holder: { agent: { agentId: 'much-too-long', tokenomics: { price: 1 } } } },
    [[`${S}/Agent/properties/agentId/maxLength`, 'assumption']],
  ],
  [
    'allOf',
    { priced: { price: -1, currency: 'EUR' } },
    [
      [`${S}/Tokenomics/properties/price/minimum`, 'seed'],
      [`${S}/Priced/allOf/1/properties/currency/enum`, 'seed'],
    ],
  ],
  [
    'oneOf',
    { pet: { kind: 'cat', lives: 10 } },
    [
      [`${S}/Cat/properties/lives/maximum`, 'assumption'],
      [`${S}/Dog/properties/kind/const`, 'seed'],
      [`${S}/Pet/oneOf`, 'seed'],
    ],
  ],
  [
    'a $ref inside a oneOf branch',
    { pet: { kind: 'dog', owner: noTokenomics } },
    [
      [`${S}/Cat/properties/kind/const`, 'seed'],
      [`${S}/Agent/required`, 'seed'],
      [`${S}/Pet/oneOf`, 'seed'],
    ],
  ],
  [
    'anyOf',
    { contact: 'nobody' },
    [
      [`${S}/Email/format`, 'seed'],
      [`${S}/Phone/pattern`, 'assumption'],
      [`${S}/Catalog/properties/contact/anyOf`, 'assumption'],
    ],
  ],
  [
    'additionalProperties',
    { labels: { a: { text: 'longer' }, b: {} } },
    [
      [`${S}/Text/maxLength`, 'seed'],
      [`${S}/Label/required`, 'seed'],
    ],
  ],
  ['prefixItems', { pair: ['x', noTokenomics] }, [[`${S}/Agent/required`, 'seed']]],
  ['items after prefixItems', { pair: ['x', agent, 'extra'] }, [[`${S}/Catalog/properties/pair/items`, 'assumption']]],
  ['nested arrays', { grid: [[agent], [agent, noTokenomics]] }, [[`${S}/Agent/required`, 'seed']]],
];

/** The fixture's Catalog as ajv's standalone code, the way tools/generate.ts writes the spec's validators. */
function standaloneValidator(): SchemaValidator {
  const ajv = addFormats.default(new Ajv2020(ajvOptions('response', { code: { source: true } })));
  addDocumentSchemas(ajv, 'response', fixture);
  const id = schemaId(ajv, `${S}/Catalog`, 'response', fixture);
  const module = { exports: {} as Record<string, SchemaValidator> };
  const code = standaloneCode.default(ajv, { catalog: id });
  new Function('module', 'exports', 'require', code)(module, module.exports, createRequire(import.meta.url));
  const validate = module.exports.catalog;
  if (validate === undefined) throw new Error('the standalone code has no catalog validator');
  return validate;
}

const validators: [string, SchemaValidator][] = [
  ['compiled at run time', getSchemaValidator(`${S}/Catalog`, 'response', fixture)],
  ['standalone code', standaloneValidator()],
];

describe('errorRule', () => {
  describe.each(validators)('with validators %s', (_, validate) => {
    it.each(cases)('names the failing node and its origin: %s', (_name, data, rules) => {
      expect(validate(structuredClone(data))).toBe(false);
      const root = rootSchemaPointer(`${S}/Catalog`, fixture);
      const found = (validate.errors ?? []).map((error) => {
        const rule = errorRule(error, root, fixture);
        return [rule.keywordPointer, rule.origin];
      });
      expect(found).toEqual(rules);
    });
  });
});

describe('errorRules', () => {
  it.each(validators)('labels many errors of one validation as errorRule does each (%s)', (_, validate) => {
    // One keyword broken with a seed and an assumed member, and an assumed `type: integer` broken by a number (the
    // assumption) and by a string (the seed too), twice each: what a cache of origins must keep apart.
    const data = {
      page: { items: [noTokenomics, { tokenomics: { price: 1 } }, noTokenomics, { tokenomics: { price: 1 } }] },
      counts: [1.5, 'x', 2.5, 'y'],
    };
    expect(validate(structuredClone(data))).toBe(false);
    const root = rootSchemaPointer(`${S}/Catalog`, fixture);
    const errors = validate.errors ?? [];
    const ruleOf = errorRules(root, fixture);
    const labelled = errors.map((error) => ruleOf(error));
    expect(labelled).toEqual(errors.map((error) => errorRule(error, root, fixture)));
    expect(labelled.map((rule) => rule.origin)).toEqual([
      'seed',
      'assumption',
      'seed',
      'assumption',
      'assumption',
      'seed',
      'assumption',
      'seed',
    ]);
  });
});
