// pact verify and @pactflow/swagger-mock-validator (what PactFlow's bi-directional contract testing runs) give the same
// verdict, compatible or incompatible, on every pact of test/pact/fixtures/: Pact 2, 3 and 4, valid ones (valid/) and
// ones broken one way each (broken/), which pact verify must find compatible and incompatible. Where the two differ, the
// row says why, and the test holds that they still differ, so a reason that stops being true is noticed.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SwaggerMockValidatorFactory } from '@pactflow/swagger-mock-validator';
import { describe, expect, it } from 'vitest';
import { parsePact } from '../../pact/pact-file.ts';
import { verifyPact } from '../../pact/pact-report.ts';

const fixtures = fileURLToPath(new URL('fixtures/', import.meta.url));
const spec = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
const files = ['valid', 'broken'].flatMap((folder) =>
  readdirSync(`${fixtures}${folder}`)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => `${folder}/${name}`),
);

/** The fixtures where the two disagree, and why: each a rule the validator does not know or does not check. */
const differences: Readonly<Record<string, string>> = {
  'broken/basic-credential.json':
    'the validator checks only that an Authorization header is there; the spec says bearer with bearerFormat JWT, so a Basic credential is refused',
  'broken/negative-supply.json':
    "the validator reads schemas the OpenAPI 3.0 way, where exclusiveMinimum is a boolean: the spec's 3.1 bound (initialSupply > 0) is not checked",
  'broken/problem-status-differs.json':
    "a rule of the spec beyond its schemas (a problem's status is the HTTP status, an assumption), which only the spec's response checker knows",
  'broken/regex-matcher-outside-enum.json':
    "the validator checks a matcher's example, not its regex: a regex accepting a status the enum lacks passes it",
};

const validator = SwaggerMockValidatorFactory.create();

describe('pact verify agrees with @pactflow/swagger-mock-validator', () => {
  it('has at least 20 pacts, of Pact 2, 3 and 4, valid and broken', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    const versions = new Set(files.map((name) => parsePact(readFileSync(`${fixtures}${name}`, 'utf8')).version));
    expect([...versions].sort()).toEqual([2, 3, 4]);
    expect(files.filter((name) => name.startsWith('broken/')).length).toBeGreaterThanOrEqual(10);
    expect(files.filter((name) => !name.startsWith('broken/')).length).toBeGreaterThanOrEqual(8);
    for (const name of Object.keys(differences)) expect(files).toContain(name);
  });

  it.each(files)('%s', async (name) => {
    const file = `${fixtures}${name}`;
    const ours = verifyPact(parsePact(readFileSync(file, 'utf8')), { file: name, seedOnly: false });
    expect(ours.verdict, ours.interactions.flatMap((one) => one.findings.map((f) => f.message)).join('; ')).toBe(
      name.startsWith('broken/') ? 'incompatible' : 'compatible',
    );
    const theirs = await validator.validate({ specPathOrUrl: spec, mockPathOrUrl: file });
    const agree = (ours.verdict === 'compatible') === theirs.success;
    const why = differences[name];
    expect(agree, why ?? theirs.errors.map((error) => `${error.code}: ${error.message}`).join('; ')).toBe(
      why === undefined,
    );
  });
});
