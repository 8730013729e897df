// Finds functions longer than the house ceiling in TypeScript source, so the ceiling is kept by a test, not by memory.
import ts from 'typescript';

/** One function over the ceiling: where it starts and how many lines it spans. */
export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

/** A `describe(...)` callback groups tests; each test inside it is the function that does one job. */
function isDescribeCallback(node: ts.Node): boolean {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call) || !call.arguments.includes(node as ts.Expression)) return false;
  let callee: ts.Expression = call.expression;
  while (ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee))
    callee = ts.isCallExpression(callee) ? callee.expression : callee.expression;
  return ts.isIdentifier(callee) && callee.text === 'describe';
}

/**
 * The functions in `text` spanning more than `ceiling` lines, `describe` callbacks excepted.
 * @example longFunctions('a.ts', source, 120) // [{ file: 'a.ts', line: 3, name: 'main', lines: 178 }]
 */
export function longFunctions(file: string, text: string, ceiling: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body && !isDescribeCallback(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      if (lines > ceiling) found.push({ file, line: first + 1, name, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
