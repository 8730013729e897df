// `npm run mock:prism`, the stateless alternative: it starts on the same document and answers (on a free port here).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
let child: ChildProcess | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const gone = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }
});

describe('npm run mock:prism', () => {
  it('is tools/prism.ts', () => {
    const scripts = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts['mock:prism']).toBe('node tools/prism.ts');
  });

  it.each([
    ['a bad --port', ['--port', 'http'], {}, /port must be a whole number from 0 to 65535, got http/],
    ['a bad PORT', [], { PORT: '70000' }, /port must be a whole number from 0 to 65535, got 70000/],
  ])('refuses %s with one line and status 2', (_name, args, env, message) => {
    const result = spawnSync(process.execPath, ['tools/prism.ts', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('starts on the port PORT names and answers GET /v1/agents/{agentId} with a documented example', async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['tools/prism.ts'], {
      cwd: root,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (output.includes(`Prism is listening on http://127.0.0.1:${port}`)) resolve();
      };
      child?.stdout?.on('data', onData);
      child?.stderr?.on('data', onData);
      child?.once('exit', (code) => reject(new Error(`prism exited ${String(code)}: ${output}`)));
    });
    const response = await fetch(`http://127.0.0.1:${port}/v1/agents/x`, {
      headers: { authorization: `Bearer ${await mintToken()}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { agentId: string }).agentId).toBe('agt_7Qm2xK9pLr4TnW8v');
  }, 30_000);
});
