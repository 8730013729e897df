// A loopback server whose answers a test scripts per path: escape sequences, endless bodies, fake journals and
// coverage reports. What the kit's CLIs must survive when pointed at a server that means them harm.
import { execFile } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startFixtureServer } from '../support/fixture-server.ts';
import { repoRoot } from '../support/spawned-server.ts';

const execute = promisify(execFile);

/** Terminal control sequences: window title (OSC 0), clear screen, a colour, hidden text never reset, 8-bit CSI. */
export const terminalAttack = '\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\u001b[8mhidden\u009b1m\r';

/** Answers one request; the server has already read the request body. */
export type Answer = (req: IncomingMessage, res: ServerResponse) => void;

export interface HostileServer {
  url: string;
  /** Request paths received, in order. */
  paths: string[];
  close(): Promise<void>;
}

/**
 * Starts a server on a free loopback port; `answer` picks what each request gets.
 * @example const server = await startHostileServer((req, res) => res.end('\u001b[2J'));
 */
export async function startHostileServer(answer: Answer): Promise<HostileServer> {
  const paths: string[] = [];
  const server = await startFixtureServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => answer(req, res));
  });
  return { url: server.url, paths, close: server.close };
}

/**
 * Sends an endless body: 64 KiB chunks for as long as the client reads (the CLIs must stop reading).
 * @example startHostileServer((req, res) => endless(res, 'application/json', '{"entries":['));
 */
export function endless(res: ServerResponse, contentType: string, opening: string): void {
  res.writeHead(200, { 'content-type': contentType });
  res.write(opening);
  const chunk = Buffer.alloc(64 * 1024, ' ');
  const more = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
}

/**
 * A coverage answer (GET /__mock/coverage) of one entry whose operationId and key a hostile server chose.
 * @example res.end(coverageAnswer(`getAgent${terminalAttack}`, '200'));
 */
export function coverageAnswer(operationId: string, key: string): string {
  const figure = { covered: 0, total: 1, percent: 0 };
  return JSON.stringify({
    definition: 'pairs',
    percent: 0,
    requests: 1,
    categories: { status: figure, example: figure, prefer: figure, scenario: figure, problem: figure },
    entries: [{ category: 'status', operationId, key, count: 0, documented: true }],
  });
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `scripts/<script>.ts` with `args` and `env`, as a user would; never throws.
 * @example const run = await runCli('coverage', ['--base-url', server.url]);
 */
export async function runCli(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  timeout = 60_000,
): Promise<CliRun> {
  const childEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
    NO_COLOR: '1',
    ...env,
  };
  const command = [process.execPath, join(repoRoot, 'scripts', 'commands', `${script}.ts`), ...args];
  try {
    const { stdout, stderr } = await execute(command[0] ?? '', command.slice(1), {
      cwd: repoRoot,
      env: childEnv,
      timeout,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}
