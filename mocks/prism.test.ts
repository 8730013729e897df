// `npm run mock:prism`, the stateless alternative: it starts on the same document and answers (on a free port here).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { mintToken } from './auth.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const prismCli = fileURLToPath(new URL('../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));
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
  it('is Prism on spec/openapi.yaml at 127.0.0.1:4011', () => {
    const scripts = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts['mock:prism']).toBe('prism mock spec/openapi.yaml -h 127.0.0.1 -p 4011');
  });

  it('starts and answers GET /v1/agents/{agentId} with a documented example', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [prismCli, 'mock', 'spec/openapi.yaml', '-h', '127.0.0.1', '-p', String(port)], {
      cwd: root,
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
