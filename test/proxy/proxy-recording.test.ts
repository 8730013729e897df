// What the proxy keeps of the exchanges it sees: no credential of the app's in any line, control-plane answer or
// recording, in any form a server echoes it; and a recording that hands back the agents the app was answered.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingWriter } from '../../proxy/recording.ts';
import { agentsOfRecording } from '../../proxy/recorded-agents.ts';
import { SecretSet } from '../../proxy/secrets.ts';
import { echoForms, startEchoingServer } from '../contract/echoing-server.ts';
import { appSession } from './app-session.ts';
import { play, startProxy, useFakeUpstream } from './proxy-fixture.ts';

const setup = useFakeUpstream();

describe('the token', () => {
  it('is in no violation line, control-plane answer or recording, in any form the echoing server sends it', async () => {
    const echo = await startEchoingServer();
    const file = join(setup.work, 'echo.json');
    const recording = new RecordingWriter(file, echo.url);
    const { proxy, lines } = await startProxy(echo.url, { recording });
    try {
      const cookie = 'session-cookie-value-1234';
      await play(proxy, [
        {
          name: 'echo',
          method: 'GET',
          path: `/v1/agents/${setup.agentId}?token=${setup.token}`,
          headers: { authorization: `Bearer ${setup.token}`, cookie: `sid=${cookie}` },
        },
        {
          name: 'echo',
          method: 'POST',
          path: '/v1/agents/deploy',
          headers: { authorization: `Bearer ${setup.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: setup.token }),
        },
        // A path no operation has, with the token in it: the finding names the path it found.
        {
          name: 'echo',
          method: 'GET',
          path: `/v1/sessions/${setup.token}`,
          headers: { authorization: `Bearer ${setup.token}` },
        },
      ]);
      expect(echo.received).toEqual(Array(3).fill(`Bearer ${setup.token}`));
      recording.flush();
      const outputs = {
        lines: lines.join('\n'),
        violations: await (await fetch(`${proxy.url}/__mock/violations`)).text(),
        recording: await readFile(file, 'utf8'),
      };
      expect(outputs.lines).toContain('not-a-server-error');
      expect(outputs.lines).toContain('operation-documented');
      for (const [where, text] of Object.entries(outputs)) {
        expect(text, where).not.toContain(setup.token);
        expect(text, where).not.toContain(cookie);
        for (const form of echoForms(setup.token)) expect(text, `${where}: ${form.name}`).not.toContain(form.secret);
        // Nor a piece of it: the over-long name is a finding whose found text is cut, never inside the token.
        for (let start = 0; start + 6 <= setup.token.length; start += 1)
          expect(text, `${where}: a piece of the token`).not.toContain(setup.token.slice(start, start + 6));
      }
      expect(outputs.recording).toContain('<redacted>');
    } finally {
      await proxy.close();
      await echo.close();
    }
  });
});

describe('a recording', () => {
  it('holds the agents the app saw, which agentsOfRecording hands back whole and checked', async () => {
    const file = join(setup.work, 'round-trip.json');
    const recording = new RecordingWriter(file, setup.fake.url);
    const { proxy } = await startProxy(setup.fake.url, { recording, secrets: new SecretSet([setup.token]) });
    try {
      const [retrieved, deployed] = await play(proxy, appSession(setup.token, setup.agentId).slice(0, 2));
      if (!retrieved || !deployed) throw new Error('no answer');
      const { agentId: newId } = (await deployed.json()) as { agentId: string };
      const [readBack] = await play(proxy, [
        {
          name: 'read back',
          method: 'GET',
          path: `/v1/agents/${newId}`,
          headers: { authorization: `Bearer ${setup.token}` },
        },
      ]);
      recording.flush();
      const { agents, refused } = agentsOfRecording(JSON.parse(await readFile(file, 'utf8')));
      expect(refused).toEqual([]);
      // Exactly what the app was answered through the proxy (the fake's figures move on as its tasks finish).
      expect(agents).toEqual([await retrieved.json(), await readBack?.json()]);
    } finally {
      await proxy.close();
    }
  });

  it('leaves out, with the reason, a recorded agent that breaks the schema', () => {
    const bad = {
      format: 'agent-registry-kit-recording',
      version: 1,
      baseUrl: 'http://x',
      exchanges: [
        {
          request: { method: 'GET', url: 'http://x/v1/agents/agt_1' },
          response: { status: 200, body: '{"agentId":"agt_1"}' },
        },
      ],
    };
    const { agents, refused } = agentsOfRecording(bad);
    expect(agents).toEqual([]);
    expect(refused[0]).toMatch(/^\/exchanges\/0 \(GET agt_1\): the agent .* is required$/);
    expect(() => agentsOfRecording({ checks: [] })).toThrow(/is not a recording/);
  });
});
