// Whether this Node meets the package's `engines` floor: on an older one the CLI says so in one line, instead of
// failing with the SyntaxError of an API it imports (Node 20 has no `enableCompileCache`).

/**
 * The floor `engines.node` states (`>=X.Y.Z`, the only form this package writes), when `version` is below it; else
 * undefined.
 * @example nodeBelowFloor('20.20.2', '>=22.15.0') // '22.15.0'
 */
export function nodeBelowFloor(version: string, engines: string | undefined): string | undefined {
  const floor = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines ?? '');
  const running = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!floor || !running) return undefined;
  for (let part = 1; part <= 3; part += 1) {
    const difference = Number(running[part]) - Number(floor[part]);
    if (difference !== 0) return difference < 0 ? floor.slice(1).join('.') : undefined;
  }
  return undefined;
}
