// mocks/control-plane/control-plane.yaml documents what the control plane does: it lints clean, and every documented route is served.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  agentStatuses,
  getAtPointer,
  operations,
  taskPriorities,
  taskStatuses,
  walkOperations,
  type JsonObject,
} from '../../spec/index.ts';
import { createFixedClock } from '../../mocks/domain/clock.ts';
import { controlPlaneDocument } from '../../mocks/core/control-document/control-plane-document.generated.ts';
import { createMockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';

const documentUrl = new URL('../../mocks/control-plane/control-plane.yaml', import.meta.url);
/** Every control-plane operationId is `mock` and a capitalized name: `mockListAgents`, never an API's `listAgents`. */
const CONTROL_NAMESPACE = /^mock[A-Z]/;
const redocly = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

describe('mocks/control-plane/control-plane.yaml', () => {
  it('passes redocly lint (recommended rules)', () => {
    const result = spawnSync(process.execPath, [redocly, 'lint', fileURLToPath(documentUrl)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr + result.stdout).toMatch(/valid/i);
    expect(result.status).toBe(0);
  });

  it("refers to the API's enums instead of restating them, and its generated document has exactly the API's", () => {
    const document = parse(readFileSync(documentUrl, 'utf8')) as JsonObject;
    const at = (root: unknown, pointer: string): unknown => getAtPointer(root as JsonObject, pointer);
    const cases = [
      ['/components/schemas/AgentStatus', 'AgentStatus', agentStatuses],
      ['/components/schemas/Task/properties/status', 'TaskStatus', taskStatuses],
      ['/components/schemas/Task/properties/priority', 'TaskPriority', taskPriorities],
    ] as const;
    for (const [pointer, name, fromSpec] of cases) {
      expect(at(document, pointer), pointer).toEqual({ $ref: `../../spec/openapi.yaml#/components/schemas/${name}` });
      expect(at(controlPlaneDocument, `${pointer}/enum`), pointer).toEqual(fromSpec);
    }
  });

  it('names its operations in a namespace of their own, mock…, which no API operationId may use', () => {
    const document = parse(readFileSync(documentUrl, 'utf8')) as JsonObject;
    const ids = walkOperations(document).map((record) => record.operationId);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id) => id === undefined || !CONTROL_NAMESPACE.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    // The API may grow any operation (a listAgents of its own): none can be spelled as the control plane's.
    expect([...operations.keys()].filter((id) => CONTROL_NAMESPACE.test(id))).toEqual([]);
  });

  it.each([
    ['mockListAgents', true],
    ['mockGetTask', true],
    ['listAgents', false],
    ['mockery', false],
    ['getMockTask', false],
  ])('tells the control plane namespace: %s is in it: %s', (id, inside) => {
    expect(CONTROL_NAMESPACE.test(id)).toBe(inside);
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
      const path = template
        .replace('{agentId}', agentId)
        .replace('{taskId}', 'tsk_unknown')
        .replace('{operationId}', 'getAgent');
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
