// The consumer's own tests and types against the installed kit: its vitest suite in the node, jsdom and happy-dom
// environments (a request no handler covers failing), tsc --strict over the app, and tsc refusing every wrong override
// and seed its type-errors/ files mark. Registered in consumer.test.ts's describe; reads `scratch` when its tests run.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { appBin, type Run, run, scratch } from './scratch-app.ts';

let appAndTypeErrorsRun: Promise<Run> | undefined;
/**
 * tsc over the app's browser side (src, web) and its type-errors/ files in one program (tsconfig.type-errors.json):
 * the compiler options are the same, so one run (about 12 CPU-s on a 2-core machine: every .d.ts is checked) gives
 * both the app's diagnostics, which must be none, and the ones type-errors/ must raise.
 */
function appAndTypeErrors(): Promise<Run> {
  appAndTypeErrorsRun ??= run(appBin('tsc'), ['-p', 'tsconfig.type-errors.json'], scratch.app);
  return appAndTypeErrorsRun;
}

/** The app's vitest JSON report (`--reporter=json`): per file, when it ran and its tests' outcomes. */
export interface AppSuiteReport {
  testResults: {
    name: string;
    status: string;
    startTime: number;
    endTime: number;
    assertionResults: { status: string; failureMessages: string[] }[];
  }[];
}

let appSuiteRun: Promise<{ result: Run; report: AppSuiteReport }> | undefined;
/**
 * The app's whole vitest suite, run once: the step below checks its outcomes, and the pact step (pact-export.ts) takes
 * the pact its two pact-writing files write (pacts/agent-card.json, no PACT_FILE given) as one of its two runs.
 */
export function appSuite(): Promise<{ result: Run; report: AppSuiteReport }> {
  appSuiteRun ??= (async () => {
    const { app } = scratch;
    const result = await run(
      appBin('vitest'),
      ['run', '--reporter=default', '--reporter=json', '--outputFile.json=results.json'],
      app,
    );
    const report = JSON.parse(await readFile(join(app, 'results.json'), 'utf8')) as AppSuiteReport;
    return { result, report };
  })();
  return appSuiteRun;
}

/** Registers the steps; call it inside consumer.test.ts's describe. */
export function appCheckSteps(): void {
  it('runs the fake in vitest’s node, jsdom and happy-dom environments, and fails a request no handler covers', async () => {
    const { result, report } = await appSuite();
    const byFile = Object.fromEntries(
      report.testResults.map((file) => [
        file.name.slice(file.name.lastIndexOf('/') + 1),
        file.assertionResults.map((test) => test.status),
      ]),
    );
    const output = `${result.stdout}\n${result.stderr}`;
    expect(byFile, output).toEqual({
      'api-node.spec.ts': ['passed'],
      'api-jsdom.spec.ts': ['passed'],
      'api-happy-dom.spec.ts': ['passed'],
      'unhandled-request.spec.ts': ['failed'],
      'agent-card.spec.tsx': Array(9).fill('passed'),
      'agent-query.spec.tsx': Array(4).fill('passed'),
      'agent-card-pact.spec.tsx': Array(3).fill('passed'),
      'agent-card-errors.spec.tsx': Array(4).fill('passed'),
      'standalone-server.spec.ts': ['passed'],
      'deploy-form.spec.tsx': Array(3).fill('passed'),
      'standalone-beside-msw.spec.ts': ['passed'],
    });
    // It failed because msw refused the request, not for any other reason.
    expect(output).toMatch(/intercepted a request without a matching request handler/);
    const unhandled = report.testResults.find((file) => file.name.endsWith('unhandled-request.spec.ts'));
    expect(unhandled?.assertionResults[0]?.failureMessages.join('\n')).toMatch(/fetch failed/i);
    expect(result.status).toBe(1);
  }, 900_000);

  it('type-checks with tsc --strict and moduleResolution bundler, without allowImportingTsExtensions', async () => {
    const { app } = scratch;
    // The browser-side app with no Node types at all (checked in the one program with type-errors/, which must hold
    // every diagnostic of it), and the node-only server entry with them.
    const [browserSide, node] = await Promise.all([
      appAndTypeErrors(),
      run(appBin('tsc'), ['-p', 'tsconfig.node.json'], app),
    ]);
    // Every diagnostic's first line starts with its file (its details follow indented): none may be outside type-errors/.
    const outside = `${browserSide.stdout}${browserSide.stderr}`
      .split('\n')
      .filter((line) => /^\S/.test(line) && !/^type-errors\//.test(line));
    expect(outside, 'tsconfig.json (src, web)').toEqual([]);
    expect(`${node.stdout}${node.stderr}`, 'tsconfig.node.json').toBe('');
    expect(node.status, 'tsconfig.node.json').toBe(0);
    const config = await readFile(join(app, 'tsconfig.json'), 'utf8');
    expect(config).toMatch(/"moduleResolution": "bundler"/);
    expect(config).not.toMatch(/allowImportingTsExtensions/);
    expect(JSON.parse(await readFile(join(app, 'tsconfig.type-errors.json'), 'utf8'))).toEqual({
      extends: './tsconfig.json',
      include: ['src', 'web', 'type-errors'],
    });
  }, 900_000);

  it('refuses, with tsc, every wrong override and seed its type-errors/ files mark, and nothing else there', async () => {
    const { app } = scratch;
    const result = await appAndTypeErrors();
    expect(result.status).not.toBe(0);
    const found = [...result.stdout.matchAll(/^type-errors\/([\w-]+\.ts)\((\d+),\d+\): error (TS\d+)/gm)].map(
      ([, file, line, code]) => `${file}:${line} ${code}`,
    );
    // Each marked line (`// error TSxxxx: why`) announces the diagnostic tsc must give on the line below it.
    const expected: string[] = [];
    for (const file of await readdir(join(app, 'type-errors'))) {
      const lines = (await readFile(join(app, 'type-errors', file), 'utf8')).split('\n');
      lines.forEach((line, index) => {
        const code = /^\/\/ error (TS\d+):/.exec(line)?.[1];
        if (code) expected.push(`${file}:${index + 2} ${code}`);
      });
    }
    expect(expected.length).toBeGreaterThanOrEqual(10);
    expect(found.sort(), result.stdout).toEqual(expected.sort());
  }, 900_000);
}
