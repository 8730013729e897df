// The one JUnit XML writer of the kit: `contract --junit` and `pact verify --junit` each say what their suite, cases and
// properties are, and this writes them the way CI reads them (testsuites > testsuite > properties, testcases), every
// name and message through xmlText.
import { xmlText as xml } from './xml-text.ts';

/** One testcase; at most one of failure, error and skipped (a case with none passed). */
export interface JUnitCase {
  /** What CI groups the case under (the operation). */
  classname: string;
  name: string;
  /** Seconds, as written. */
  time: string;
  failure?: { message: string; type: string; body: string };
  error?: { message: string; body: string };
  /** The reason shown for a skipped case. */
  skipped?: string;
  systemOut?: string;
}

/** One suite and what its header counts. */
export interface JUnitSuite {
  name: string;
  /** When the run started (ISO 8601), if the tool knows it. */
  timestamp?: string;
  counts: { tests: number; failures: number; errors: number; skipped: number };
  /** Seconds the run took, as written, if the tool knows it. */
  time?: string;
  properties: ReadonlyArray<readonly [name: string, value: string]>;
  /** The cases, made one at a time as they are written when an iterable gives them. */
  cases: Iterable<JUnitCase>;
}

function testcase(entry: JUnitCase): string {
  const open = `    <testcase classname="${xml(entry.classname)}" name="${xml(entry.name)}" time="${xml(entry.time)}"`;
  const children: string[] = [];
  const { failure, error } = entry;
  if (failure)
    children.push(
      `<failure message="${xml(failure.message)}" type="${xml(failure.type)}">${xml(failure.body)}</failure>`,
    );
  if (error) children.push(`<error message="${xml(error.message)}">${xml(error.body)}</error>`);
  if (entry.skipped !== undefined) children.push(`<skipped message="${xml(entry.skipped)}"/>`);
  if (entry.systemOut !== undefined) children.push(`<system-out>${xml(entry.systemOut)}</system-out>`);
  if (children.length === 0) return `${open}/>`;
  return `${open}>${children.map((child) => `\n      ${child}`).join('')}\n    </testcase>`;
}

/**
 * The JUnit XML of one suite, in parts (a line each): a writer of a large suite never holds it as one string.
 * @example for (const part of junitXmlParts(suite)) writeSync(fd, `${part}\n`);
 */
export function* junitXmlParts(suite: JUnitSuite): Generator<string> {
  const { tests, failures, errors, skipped } = suite.counts;
  const time = suite.time === undefined ? '' : ` time="${xml(suite.time)}"`;
  const counts = `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}"${time}`;
  const timestamp = suite.timestamp === undefined ? '' : ` timestamp="${xml(suite.timestamp)}"`;
  yield '<?xml version="1.0" encoding="UTF-8"?>';
  yield `<testsuites name="${xml(suite.name)}" ${counts}>`;
  yield `  <testsuite name="${xml(suite.name)}"${timestamp} ${counts}>`;
  yield '    <properties>';
  for (const [name, value] of suite.properties) yield `      <property name="${xml(name)}" value="${xml(value)}"/>`;
  yield '    </properties>';
  for (const entry of suite.cases) yield testcase(entry);
  yield '  </testsuite>';
  yield '</testsuites>';
}

/**
 * The JUnit XML of one suite.
 * @example formatJUnitXml({ name: 'x', counts: { tests: 1, failures: 0, errors: 0, skipped: 0 }, properties: [], cases: [{ classname: 'op', name: 'ok', time: '0' }] })
 */
export function formatJUnitXml(suite: JUnitSuite): string {
  return `${[...junitXmlParts(suite)].join('\n')}\n`;
}
