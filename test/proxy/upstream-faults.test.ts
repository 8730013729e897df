// The proxy in front of upstreams that do not answer as they should: down, silent, over https with a certificate no
// CA the system trusts signed; and a request body too large to forward. Each is a problem+json of its own, never a hang.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../proxy/proxy-server.ts';
import { createUpstream } from '../../proxy/upstream.ts';
import { closedPortUrl, startSilentUpstream } from './app-session.ts';
import { startProxy, useFakeUpstream } from './proxy-fixture.ts';

const setup = useFakeUpstream();

describe('upstream faults', () => {
  it('a request body over 1 MiB is a 413 problem+json, as the fake answers it, and never reaches the upstream', async () => {
    const { proxy } = await startProxy(setup.fake.url);
    const before = ((await (await fetch(`${setup.fake.url}/__mock/journal`)).json()) as { entries: unknown[] }).entries
      .length;
    try {
      const answer = await fetch(`${proxy.url}/v1/agents/deploy`, {
        method: 'POST',
        headers: { authorization: `Bearer ${setup.token}`, 'content-type': 'application/json' },
        body: `{"name":"${'x'.repeat(1_048_576)}"}`,
      });
      expect(answer.status).toBe(413);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      const after = ((await (await fetch(`${setup.fake.url}/__mock/journal`)).json()) as { entries: unknown[] }).entries
        .length;
      expect(after).toBe(before);
    } finally {
      await proxy.close();
    }
  });

  it('an upstream that is down is a 502 problem+json at once', async () => {
    const { proxy } = await startProxy(await closedPortUrl());
    try {
      const answer = await fetch(`${proxy.url}/v1/agents/${setup.agentId}`, { signal: AbortSignal.timeout(5000) });
      expect(answer.status).toBe(502);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect(((await answer.json()) as { detail: string }).detail).toMatch(/could not be reached \(ECONNREFUSED\)/);
    } finally {
      await proxy.close();
    }
  });

  it('an upstream that never answers is a 504 problem+json after --timeout, not a hang', async () => {
    const silent = await startSilentUpstream();
    const { proxy } = await startProxy(silent.url, { timeoutMs: 300 });
    try {
      const started = performance.now();
      const answer = await fetch(`${proxy.url}/v1/agents/${setup.agentId}`, { signal: AbortSignal.timeout(5000) });
      expect(answer.status).toBe(504);
      expect(((await answer.json()) as { detail: string }).detail).toContain('did not answer within 300 ms');
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await proxy.close();
      await silent.close();
    }
  });
});

describe('an https upstream', () => {
  let tls: { url: string; cert: string; close(): Promise<void> };

  beforeAll(async () => {
    // A self-signed certificate made now by openssl, for 127.0.0.1: no CA the system trusts has signed it.
    const key = join(setup.work, 'upstream-key.pem');
    const certFile = join(setup.work, 'upstream-cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        certFile,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const cert = await readFile(certFile, 'utf8');
    // The https upstream is the fake itself, relayed.
    const server = createHttpsServer({ key: await readFile(key), cert }, (req, res) => {
      void fetch(setup.fake.url + (req.url ?? '/'), {
        headers: { authorization: req.headers.authorization ?? '' },
      }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
        res.end(await answer.text());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    tls = {
      url: `https://127.0.0.1:${port}`,
      cert,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  });

  afterAll(async () => {
    await tls.close();
  });

  const retrieve = (proxy: RunningProxy): Promise<Response> =>
    fetch(`${proxy.url}/v1/agents/${setup.agentId}`, { headers: { authorization: `Bearer ${setup.token}` } });

  it('with an untrusted certificate is a 502 problem+json naming the certificate error, never a pass', async () => {
    const { proxy } = await startProxy(tls.url);
    try {
      const answer = await retrieve(proxy);
      expect(answer.status).toBe(502);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(
        /does not trust \((?:DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\).*--insecure/,
      );
    } finally {
      await proxy.close();
    }
  });

  it('is reached with --insecure, or with its certificate given as a trusted CA', async () => {
    for (const upstream of [createUpstream(tls.url, { insecure: true }), createUpstream(tls.url, { ca: tls.cert })]) {
      const { proxy } = await startProxy(tls.url, { upstream });
      try {
        const answer = await retrieve(proxy);
        expect(answer.status).toBe(200);
        expect(((await answer.json()) as { agentId: string }).agentId).toBe(setup.agentId);
        expect(proxy.violations.report().total).toBe(0);
      } finally {
        await proxy.close();
      }
    }
  });
});
