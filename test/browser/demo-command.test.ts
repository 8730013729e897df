// `npm run demo` as a developer runs it: it builds, serves the page and the worker script on 127.0.0.1, and prints the URL;
// a bad PORT or argument is one clear line. Plain HTTP, no browser needed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = 'tools/demo.ts';

/** Starts the demo and resolves with the URL it prints. */
function startDemo(outDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script, '--out', outDir], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(output);
      if (match) resolve({ child, url: match[0] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the demo exited with ${code} before printing its URL:\n${output}`)));
  });
}

describe('npm run demo', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'agent-registry-demo-'));
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(outDir, { recursive: true, force: true });
  });

  it('builds the demo, serves the page and the worker script on 127.0.0.1, and prints the URL', async () => {
    const started = await startDemo(outDir);
    child = started.child;
    const page = await fetch(started.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Agent Registry: browser demo</title>');
    const worker = await fetch(new URL('mockServiceWorker.js', started.url));
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/javascript/);
    expect(await worker.text()).toContain('Mock Service Worker');
  });

  it.each([
    [
      'a PORT that is not a port',
      {
        env: { PORT: '80a' },
        args: [],
        want: 'agent-registry-kit: PORT must be a port number from 0 to 65535, not "80a"',
      },
    ],
    ['an unknown argument', { env: {}, args: ['--watch'], want: "agent-registry-kit: Unknown option '--watch'" }],
  ])('rejects %s with one line and status 2', (_name, { env, args, want }) => {
    const run = spawnSync(process.execPath, [script, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(want);
  });
});
