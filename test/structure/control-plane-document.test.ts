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
  type JsonObject,
} from '../../spec/index.ts';
import { createFixedClock } from '../../mocks/core/clock.ts';
import { controlPlaneDocument } from '../../mocks/control-plane/control-plane-document.generated.ts';
import { createMockCore } from '../../mocks/core/core.ts';
import { silentLogger } from '../../mocks/core/logger.ts';

const documentUrl = new URL('../../mocks/control-plane/control-plane.yaml', import.meta.url);
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

  it('names no operation as the API does (one operationId, one meaning)', () => {
    const api = new Set(operations.keys() as Iterable<string>);
    const document = parse(readFileSync(documentUrl, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) =>
        typeof operation === 'object' && operation !== null && 'operationId' in operation
          ? [String(operation.operationId)]
          : [],
      ),
    );
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id) => api.has(id))).toEqual([]);
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
