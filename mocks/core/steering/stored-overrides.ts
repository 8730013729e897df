// The overrides set through the control plane (or the core's test API) as a document of the storage, so `--state` keeps
// them over a restart and every replica on one PostgreSQL database answers with them. What is loaded is built again
// through the same checks PUT /__mock/overrides applies: a stored override nobody could have set is refused, never served.
import type { OperationId } from '../../../spec/index.ts';
import { controlOperations, validateBody } from '../control-document/control-plane-schemas.ts';
import { buildOverrideFrom, OverrideError, type BuiltOverride, type OverrideInput } from './overrides.ts';

/** The document's name in the storage. */
export const OVERRIDES_DOCUMENT = 'overrides';

const setOverrideRoute = controlOperations.find((operation) => operation.operationId === 'mockSetOverride');

/**
 * A stored overrides document built again: each entry shaped as PUT /__mock/overrides' body (the same schema) and
 * checked by the spec's response checker unless it was stored as `unchecked`; the first problem otherwise.
 * @example parseStoredOverrides([{ operation: 'GET /v1/agents/{agentId}', status: 418 }]).ok // false: 418 is not documented
 */
export function parseStoredOverrides(
  value: unknown,
): { ok: true; value: BuiltOverride[] } | { ok: false; reason: string } {
  if (!Array.isArray(value)) return { ok: false, reason: 'must be a list of overrides' };
  const built = new Map<OperationId, BuiltOverride>();
  for (const [index, entry] of value.entries()) {
    // structuredClone: the validator fills in defaults, and the stored value must stay as it was read.
    const shaped = setOverrideRoute
      ? validateBody(setOverrideRoute, structuredClone(entry))
      : { ok: true as const, value: entry };
    if (!shaped.ok)
      return {
        ok: false,
        reason: `/${index}${shaped.errors[0]?.path ?? ''} ${shaped.errors[0]?.message ?? 'is invalid'}`,
      };
    try {
      const override = buildOverrideFrom(shaped.value as OverrideInput);
      if (built.has(override.operation.operationId))
        return { ok: false, reason: `/${index} overrides ${override.operation.operationId} a second time` };
      built.set(override.operation.operationId, override);
    } catch (error) {
      if (!(error instanceof OverrideError)) throw error;
      return { ok: false, reason: `/${index}: ${error.message}` };
    }
  }
  return { ok: true, value: [...built.values()] };
}
