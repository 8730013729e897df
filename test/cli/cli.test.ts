// `agent-registry-kit` as the repository runs it (node scripts/cli.ts): the table of subcommands, their help, one-line
// mistakes, and `npm start` stopping when the PID a shell got is killed.
import { spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliHelp, subcommands } from '../../scripts/cli.ts';
import { stopsAnswering } from '../support/stops-answering.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['scripts/cli.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('agent-registry-kit', () => {
  it('lists every subcommand of the table with --help, and exits 0', () => {
    const result = cli(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${cliHelp()}\n`);
    for (const [name, { summary }] of Object.entries(subcommands))
      expect(result.stdout).toMatch(new RegExp(`^  ${name} +${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  });

  it.each(Object.keys(subcommands))('%s --help prints its own usage and exits 0', (name) => {
    const result = cli([name, '--help']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`usage: agent-registry-kit ${name}\\b`, 'i'));
  });

  it.each([
    ['no subcommand', [], /^agent-registry-kit: a subcommand is missing; usage: agent-registry-kit <serve\|/],
    ['an unknown subcommand', ['deploy'], /^agent-registry-kit: unknown subcommand "deploy"; usage: /],
    ['an inherited property name', ['constructor'], /^agent-registry-kit: unknown subcommand "constructor"/],
    ['a flag a subcommand lacks', ['token', '--port', '1'], /^agent-registry-kit: Unknown option '--port'/],
  ])('refuses %s with one line on stderr and status 2', (_name, args, message) => {
    const result = cli(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('prints the version of package.json with --version', async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    const result = cli(['--version']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it('runs the subcommand with the arguments after its name', () => {
    const result = cli(['assumptions', '--json']);
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as unknown[]).length).toBeGreaterThan(0);
  });
});

describe('a mistake in what a subcommand is given is one line and exit 2, never 70', () => {
  it.each([
    ['token --secret ""', ['token', '--secret', ''], /--secret .* must not be empty/],
    ['token --sub ESC[2J', ['token', '--sub', '\u001b[2J'], /--sub holds a control character/],
    ['docs --out /dev/null (a file)', ['docs', '--out', '/dev/null'], /--out \/dev\/null cannot hold the pages/],
  ])('%s', (_name, args, message) => {
    const result = cli(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('npm start', () => {
  it('stops when the PID a shell got (npm’s) is killed, instead of leaving the server serving', async () => {
    // npm runs the script under `sh -c`, which dies of the SIGTERM npm forwards and does not pass it on. The group of
    // its own lets the clean-up reach a server that outlived npm.
    const npm = spawn('npm', ['start', '--', '--port', '0'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        npm.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /fake backend listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        npm.on('exit', (code) => reject(new Error(`npm start exited ${String(code)}: ${output}`)));
      });
      expect((await fetch(`${url}/__mock/health`)).status).toBe(200);
      const gone = new Promise((resolve) => npm.once('exit', resolve));
      npm.kill('SIGTERM');
      await gone;
      expect(await stopsAnswering(`${url}/__mock/health`)).toBe(true);
    } finally {
      try {
        if (npm.pid !== undefined) process.kill(-npm.pid, 'SIGKILL');
      } catch {
        // the group is gone already: nothing was left running
      }
    }
  }, 60_000);
});
