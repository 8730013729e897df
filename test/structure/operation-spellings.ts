// Where the source spells each operationId: a bound keeps an operation's name in at most four non-test source
// files (its handler, the operation table, and a few that truly need that one operation), so adding an operation does
// not mean hunting its siblings' names through the tree.

/** A source file and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/** Whether a tracked file is non-test source: TypeScript, not a test, not generated, not under test/. */
export function isNonTestSource(path: string): boolean {
  return (
    path.endsWith('.ts') &&
    !path.endsWith('.test.ts') &&
    !path.includes('.generated.') &&
    !path.startsWith('test/') &&
    !path.startsWith('dist/')
  );
}

/**
 * The files that spell each operationId as a whole word, by operationId. A member of some object named like an
 * operation is not a spelling of it: a member access (`control.listAgents()`) or a method defined in an object literal
 * (`listAgents: () => …`, `listAgents() {`), as a client of the control plane has. A quoted id, a bare identifier (the
 * handler) and a key holding data (the operation table's `getAgent: { handle, reads }`) are.
 * @example spellings([{ path: 'a.ts', text: "get('getAgent')" }], ['getAgent']).get('getAgent') // ['a.ts']
 */
export function spellings(files: readonly SourceFile[], operationIds: readonly string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const id of operationIds) {
    const word = new RegExp(
      [
        '(?<![A-Za-z0-9_$])(?<!\\??\\.)', // not inside a longer name, not after `.` or `?.`
        id,
        '(?![A-Za-z0-9_$])',
        '(?!\\s*:\\s*(?:async\\s*)?(?:\\(|function\\b|[A-Za-z_$][\\w$]*\\s*=>))', // not `id: (…) =>`, `id: x =>`
        '(?!\\s*\\([^)]*\\)\\s*(?::[^{]*)?\\{)', // not a method shorthand `id(…) {`
      ].join(''),
    );
    found.set(
      id,
      files.filter((file) => word.test(file.text)).map((file) => file.path),
    );
  }
  return found;
}
