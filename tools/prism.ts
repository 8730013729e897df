// `npm run mock:prism`: Prism's stateless, example-only mock of spec/openapi.yaml on 127.0.0.1 (port from --port or
// PORT, default 4011), for comparison with the fake. A development tool of this repository: Prism is no dependency of
// the package.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliError } from '../scripts/cli-error.ts';
import { parseCommandLine } from '../scripts/command-line.ts';
import { stopWithLauncher } from '../scripts/stop-with-launcher.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const usage = 'usage: [PORT=4011] npm run mock:prism [-- --port <n>]';

/**
 * Starts Prism on spec/openapi.yaml in this very process, so the PID a shell got is the server's.
 * @example await main(['--port', '0']);
 */
export async function main(args: string[]): Promise<void> {
  const values = parseCommandLine(
    { port: { type: 'string' } },
    { usage, help: `${usage}\n  --port <n>  port to listen on (env PORT, default 4011)` },
    args,
  );
  const portText = values.port ?? process.env.PORT ?? '4011';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    cliError(`port must be a whole number from 0 to 65535, got ${portText} (--port or PORT)`);
  const manifest = createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json');
  const prismCli = join(dirname(manifest), 'dist', 'index.js');
  // Prism's CLI reads process.argv when it loads; running it here rather than as a child keeps one process to stop.
  process.argv = [
    process.execPath,
    prismCli,
    'mock',
    join(root, 'spec', 'openapi.yaml'),
    '-h',
    '127.0.0.1',
    '-p',
    portText,
  ];
  await import(prismCli);
  stopWithLauncher(() => process.exit(0));
}

if (import.meta.main) await main(process.argv.slice(2));
