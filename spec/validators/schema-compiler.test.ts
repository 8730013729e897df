import { describe, expect, it } from 'vitest';
import { isJsonObject, type JsonValue } from '../json-pointer.ts';
import { openapiDocument } from '../openapi-document.generated.ts';
import { schemaModes, validatedSchemaPointers } from './ajv-setup.ts';
import { getSchemaValidator } from './schema-compiler.ts';
import { requestValidators, responseValidators, strictValidators } from './schema-validators.generated.ts';

const tables = { request: requestValidators, response: responseValidators, strict: strictValidators };

/** Every example value of the document, and each with one of its fields dropped, null, too large or too long. */
function probeValues(): JsonValue[] {
  const examples: JsonValue[] = [];
  const walk = (node: JsonValue): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isJsonObject(node)) {
      if (node.value !== undefined && node.summary !== undefined) examples.push(node.value);
      Object.values(node).forEach(walk);
    }
  };
  walk(openapiDocument);
  const mutated = examples.flatMap((example) =>
    isJsonObject(example)
      ? Object.keys(example).flatMap((key) => [
          Object.fromEntries(Object.entries(example).filter(([name]) => name !== key)),
          { ...example, [key]: null },
          { ...example, [key]: 2 ** 60 },
          { ...example, [key]: 'x'.repeat(300) },
        ])
      : [],
  );
  return [null, true, -1, 1.5, 2 ** 60, '', 'x'.repeat(3000), 'Bearer x', [], [1, 'a'], {}, ...examples, ...mutated];
}

describe('the generated validators', () => {
  it('hold one validator for each schema the validators of spec/ ask for, per mode', () => {
    const pointers = validatedSchemaPointers(openapiDocument);
    for (const mode of schemaModes) {
      expect(Object.keys(tables[mode]()).sort()).toEqual(pointers[mode]);
      expect(pointers[mode].length).toBeGreaterThan(0);
    }
  });

  it('answer exactly as ajv compiling the same schema at run time: result, errors, pointers, defaults', () => {
    const copy = structuredClone(openapiDocument);
    const values = probeValues();
    expect(values.length).toBeGreaterThan(50);
    for (const mode of schemaModes) {
      for (const pointer of validatedSchemaPointers(openapiDocument)[mode]) {
        const generated = getSchemaValidator(pointer, mode);
        const compiled = getSchemaValidator(pointer, mode, copy);
        expect(generated).not.toBe(compiled);
        for (const value of values) {
          const [one, other] = [structuredClone(value), structuredClone(value)];
          // As text, errors with their schema and data: a deep comparison of each would take seconds.
          const answer = JSON.stringify([generated(one), generated.errors, one]);
          if (answer !== JSON.stringify([compiled(other), compiled.errors, other]))
            expect({ pointer, mode, answer }).toEqual({
              pointer,
              mode,
              answer: JSON.stringify([compiled(structuredClone(value)), compiled.errors, other]),
            });
        }
      }
    }
  });
});
