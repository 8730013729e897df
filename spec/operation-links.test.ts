// linkEchoes on a small fixture document: a link's `x-echoes` says which fields of the target's answer echo the source's
// request or answer, and a malformed entry is refused rather than dropped (a dropped one would check nothing).
import { describe, expect, it } from 'vitest';
import type { JsonObject } from './json-pointer.ts';
import { linkEchoes, linksOf } from './operation-links.ts';

function fixture(echoes?: JsonObject): JsonObject {
  return {
    openapi: '3.1.0',
    paths: {
      '/things': {
        post: {
          operationId: 'makeThing',
          responses: {
            '201': {
              description: 'made',
              links: {
                ReadThing: {
                  operationId: 'readThing',
                  parameters: { id: '$response.body#/id' },
                  ...(echoes === undefined ? {} : { 'x-echoes': echoes }),
                },
              },
            },
          },
        },
      },
      '/things/{id}': {
        get: {
          operationId: 'readThing',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'read' } },
        },
      },
    },
  };
}

function echoesOf(document: JsonObject) {
  const [link] = linksOf(document);
  if (!link) throw new Error('the fixture has a link');
  return linkEchoes(link, document);
}

describe('linkEchoes', () => {
  it('reads request and answer fields, nested ones and escaped tokens included, in the document order', () => {
    expect(
      echoesOf(
        fixture({
          '$request.body#/size': '/figures/total',
          '$request.body#/a~1b': '/ab',
          '$response.body#/id': '/id',
        }),
      ),
    ).toEqual([
      { from: 'request', field: '/size', target: '/figures/total' },
      { from: 'request', field: '/a~1b', target: '/ab' },
      { from: 'response', field: '/id', target: '/id' },
    ]);
  });

  it('is empty for a link without x-echoes', () => {
    expect(echoesOf(fixture())).toEqual([]);
  });

  it.each([
    ['an expression that is not a body', { '$request.query.size': '/size' }],
    ['a target that is not a pointer', { '$request.body#/size': 'size' }],
    ['a target that is not text', { '$request.body#/size': 3 }],
  ])('refuses %s, naming the link', (_, echoes) => {
    expect(() => echoesOf(fixture(echoes as JsonObject))).toThrow(/links\/ReadThing\/x-echoes/);
  });
});
