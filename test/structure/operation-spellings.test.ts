// Each operationId is spelled in at most four non-test source files (operation-spellings.ts says why); the rest take
// operations from the spec (its links, path templates and examples).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations } from '../../spec/index.ts';
import { isNonTestSource, spellings, type SourceFile } from './operation-spellings.ts';

const MOST_FILES = 4;

describe('operationId spellings', () => {
  it.each([
    { case: 'a quoted id', text: "route('getAgent')", found: ['a.ts'] },
    { case: 'a property key', text: 'const t = { getAgent: 1 };', found: ['a.ts'] },
    { case: 'a longer name containing it', text: "const getAgentName = 'x';", found: [] },
    { case: 'a path, not the id', text: "'/v1/agents/{agentId}'", found: [] },
    { case: 'a handler', text: 'export const getAgent: OperationHandler = () => x;', found: ['a.ts'] },
    { case: 'a call of the handler', text: 'return getAgent(request);', found: ['a.ts'] },
    { case: "another object's member", text: 'await control.getAgent();', found: [] },
    { case: 'an optional member', text: 'await control?.getAgent();', found: [] },
    { case: 'a method defined by arrow', text: 'const c = { getAgent: () => call() };', found: [] },
    { case: 'an async method', text: 'const c = { getAgent: async (id) => call(id) };', found: [] },
    { case: 'a method shorthand', text: 'const c = { getAgent(id: string): Promise<void> { return x; } };', found: [] },
  ])('counts $case: $found', ({ text, found }) => {
    expect(spellings([{ path: 'a.ts', text }], ['getAgent']).get('getAgent')).toEqual(found);
  });

  it.each([
    ['mocks/operations/getAgent.ts', true],
    ['mocks/core/router.test.ts', false],
    ['test/support/core-call.ts', false],
    ['spec/openapi-types.generated.ts', false],
    ['benchmarks/report.ts', true],
  ])('%s is non-test source: %s', (path, want) => {
    expect(isNonTestSource(path)).toBe(want);
  });

  it(`each of the spec's operationIds is spelled in at most ${MOST_FILES} non-test source files`, () => {
    const files: SourceFile[] = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
      .split('\n')
      .filter(isNonTestSource)
      .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    const over = [...spellings(files, [...operations.keys()])].filter(([, where]) => where.length > MOST_FILES);
    expect(Object.fromEntries(over)).toEqual({});
  });
});
