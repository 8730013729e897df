import { describe, expect, expectTypeOf, it } from 'vitest';
import { agentCategories, agentModels, agentStatuses, schemaEnum, taskPriorities, taskStatuses } from './enums.ts';
import { getSchemaValidator } from './validators/schema-compiler.ts';
import type { AgentCategory, AgentModel, AgentStatus, TaskPriority, TaskStatus } from './types.ts';

describe('enum lists read from the document', () => {
  // Each list must be exactly what its schema accepts: a list read from the wrong schema, or missing a value, fails here.
  it.each([
    ['AgentCategory', agentCategories],
    ['AgentModel', agentModels],
    ['AgentStatus', agentStatuses],
    ['TaskStatus', taskStatuses],
    ['TaskPriority', taskPriorities],
  ] as const)('%s: every value passes its schema and nothing else does', (name, list) => {
    const validate = getSchemaValidator(`/components/schemas/${name}`, 'response');
    expect(list.length).toBeGreaterThan(1);
    expect(list).toEqual(schemaEnum(name));
    expect(Object.isFrozen(list)).toBe(true);
    for (const value of list) expect(validate(value), value).toBe(true);
    const others = [...agentCategories, ...agentModels, ...agentStatuses, ...taskStatuses, ...taskPriorities];
    for (const value of others.filter((other) => !(list as readonly string[]).includes(other)))
      expect(validate(value), value).toBe(false);
    expect(new Set(list).size).toBe(list.length);
  });

  it('has the generated type of its schema', () => {
    expectTypeOf(agentCategories).toEqualTypeOf<readonly AgentCategory[]>();
    expectTypeOf(agentModels).toEqualTypeOf<readonly AgentModel[]>();
    expectTypeOf(agentStatuses).toEqualTypeOf<readonly AgentStatus[]>();
    expectTypeOf(taskStatuses).toEqualTypeOf<readonly TaskStatus[]>();
    expectTypeOf(taskPriorities).toEqualTypeOf<readonly TaskPriority[]>();
  });
});
