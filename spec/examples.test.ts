import { describe, expect, it } from 'vitest';
import { openapiDocument } from './openapi-document.generated.ts';
import { getAtPointer, isJsonObject, toPointer, type JsonObject } from './json-pointer.ts';
import { mediaExamples, resolveRef } from './document-refs.ts';
import { operations } from './operations.ts';
import { getSchemaValidator } from './validators/schema-compiler.ts';
import { checkResponse } from './validators/response-checker.ts';

interface ExampleCase {
  where: string;
  schemaPointer: string;
  value: unknown;
}

function examplesOf(content: JsonObject, contentPointer: string): ExampleCase[] {
  return Object.entries(content).flatMap(([mediaType, media]) => {
    if (!isJsonObject(media) || !isJsonObject(media.examples)) return [];
    return Object.entries(media.examples).map(([name, raw]) => {
      const example = isJsonObject(raw) ? resolveRef(raw, '').node : {};
      return {
        where: `${contentPointer} ${mediaType} ${name}`,
        schemaPointer: `${contentPointer}/${mediaType.replace('/', '~1')}/schema`,
        value: example.value,
      };
    });
  });
}

const requestExamples: ExampleCase[] = [];
const responseExamples: (ExampleCase & {
  operationId: Parameters<typeof checkResponse>[0]['operationId'];
  status: number;
  mediaType: string;
})[] = [];
for (const operation of operations.values()) {
  const body = getAtPointer(openapiDocument, `${operation.pointer}/requestBody/content`);
  if (isJsonObject(body)) requestExamples.push(...examplesOf(body, `${operation.pointer}/requestBody/content`));
  for (const response of operation.responses.values()) {
    const content = getAtPointer(openapiDocument, `${response.pointer}/content`);
    if (!isJsonObject(content)) continue;
    for (const example of examplesOf(content, `${response.pointer}/content`)) {
      responseExamples.push({
        ...example,
        operationId: operation.operationId,
        status: response.status,
        mediaType: response.mediaTypes[0] ?? '',
      });
    }
  }
}

describe('examples', () => {
  it('exist for every request body and every response of every operation', () => {
    for (const operation of operations.values()) {
      if (operation.requestMediaType)
        expect(
          requestExamples.some((e) => e.where.startsWith(operation.pointer)),
          operation.operationId,
        ).toBe(true);
      for (const response of operation.responses.values()) {
        const content = getAtPointer(openapiDocument, `${response.pointer}/content`);
        const names = isJsonObject(content) ? examplesOf(content, `${response.pointer}/content`) : [];
        expect(names.length, `${operation.operationId} ${response.status}`).toBeGreaterThan(0);
      }
    }
  });

  it.each(requestExamples.map((e) => [e.where, e] as const))(
    'request example %s validates against its schema',
    (_, example) => {
      const validate = getSchemaValidator(example.schemaPointer, 'response');
      expect(validate(example.value), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it.each(responseExamples.map((e) => [`${e.operationId} ${e.status} ${e.where.split(' ').at(-1) ?? ''}`, e] as const))(
    'response example %s passes the response checker with no warnings',
    (_, example) => {
      const check = checkResponse({
        operationId: example.operationId,
        status: example.status,
        contentType: example.mediaType,
        body: JSON.stringify(example.value),
      });
      expect(check.violations).toEqual([]);
      expect(check.warnings).toEqual([]);
    },
  );

  it('problem examples carry the status of the response they illustrate', () => {
    for (const example of responseExamples.filter((e) => e.mediaType === 'application/problem+json')) {
      expect(isJsonObject(example.value) && example.value.status, example.where).toBe(example.status);
    }
  });

  it('cover every component example (none is orphaned)', () => {
    const components = getAtPointer(openapiDocument, '/components/examples');
    const used = new Set(JSON.stringify(openapiDocument).match(/#\/components\/examples\/[A-Za-z]+/g) ?? []);
    for (const name of Object.keys(isJsonObject(components) ? components : {})) {
      expect(used.has(`#${toPointer(['components', 'examples', name])}`), name).toBe(true);
    }
  });
});

describe('mediaExamples', () => {
  const document: JsonObject = {
    components: { examples: { Shared: { value: { from: 'shared' } }, Empty: { summary: 'no value' } } },
  };

  it('gives the lone example, then the named ones in order, following $refs to where the value is', () => {
    const media = {
      example: 1,
      examples: {
        'a/b': { value: 2 },
        shared: { $ref: '#/components/examples/Shared' },
      },
    };
    expect(mediaExamples(media, '/m', document)).toEqual([
      { name: undefined, value: 1, pointer: '/m/example' },
      { name: 'a/b', value: 2, pointer: '/m/examples/a~1b' },
      { name: 'shared', value: { from: 'shared' }, pointer: '/components/examples/Shared' },
    ]);
  });

  it('leaves out an example without a value and one whose $ref leads nowhere, without throwing', () => {
    const media = {
      examples: {
        empty: { $ref: '#/components/examples/Empty' },
        gone: { $ref: '#/components/examples/Gone' },
        text: 'not an example object',
        kept: { value: null },
      },
    };
    expect(mediaExamples(media, '/m', document)).toEqual([{ name: 'kept', value: null, pointer: '/m/examples/kept' }]);
  });

  it("reads the spec's own examples by default", () => {
    const pointer = '/components/responses/AgentNotFound/content/application~1problem+json';
    const media = getAtPointer(openapiDocument, pointer);
    const found = isJsonObject(media) ? mediaExamples(media, pointer) : [];
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((example) => example.name !== undefined)).toBe(true);
  });
});
