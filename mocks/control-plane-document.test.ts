// mocks/control-plane.yaml documents what the control plane does: it lints clean, and every documented route is served.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { agentStatuses, getAtPointer, taskPriorities, taskStatuses, type JsonObject } from '../spec/index.ts';
import { createFixedClock } from './clock.ts';
import { createMockCore } from './core.ts';
import { silentLogger } from './logger.ts';

const documentUrl = new URL('./control-plane.yaml', import.meta.url);
const redocly = fileURLToPath(new URL('../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

describe('mocks/control-plane.yaml', () => {
  it('passes redocly lint (recommended rules)', () => {
    const result = spawnSync(process.execPath, [redocly, 'lint', fileURLToPath(documentUrl)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr + result.stdout).toMatch(/valid/i);
    expect(result.status).toBe(0);
  });

  it("restates the API's enums exactly (statuses and priorities of agents and tasks)", () => {
    const document = parse(readFileSync(documentUrl, 'utf8')) as { components: { schemas: Record<string, unknown> } };
    const at = (root: unknown, pointer: string): unknown => getAtPointer(root as JsonObject, pointer);
    const cases = [
      ['/components/schemas/AgentStatus/enum', agentStatuses],
      ['/components/schemas/Task/properties/status/enum', taskStatuses],
      ['/components/schemas/Task/properties/priority/enum', taskPriorities],
    ] as const;
    for (const [pointer, fromSpec] of cases) expect(at(document, pointer), pointer).toEqual(fromSpec);
  });

  it('documents only routes the control plane serves', async () => {
    const document = parse(readFileSync(documentUrl, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const core = createMockCore({
      seed: 42,
      clock: createFixedClock(Date.parse('2026-11-20T12:00:00Z')),
      logger: silentLogger,
    });
    const agentId = core.store.list({ limit: 1 }).agents[0]?.agentId ?? '';
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => [method.toUpperCase(), path] as const),
    );
    expect(documented.length).toBeGreaterThanOrEqual(12);
    for (const [method, template] of documented) {
      const path = template.replace('{agentId}', agentId).replace('{taskId}', 'tsk_unknown');
      const response = await core.handle({
        method,
        path,
        query: '',
        headers: { 'content-type': 'application/json' },
        body: new TextEncoder().encode('{}'),
      });
      const type = response.status >= 400 ? (JSON.parse(response.body) as { type: string }).type : '';
      expect(type, `${method} ${path}`).not.toMatch(/\/(not-found|method-not-allowed)$/);
    }
  });
});
