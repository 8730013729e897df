// Merging a new pact into the one a file already holds, as Pact merges per consumer–provider pair: interactions keyed
// as the pact log keys its exchanges (operation, method, status, provider state: what the description spells out), a
// new key added, the same interaction kept once, and a different interaction under a key the file has reported as a
// conflict while the file's own is kept. Pure: pact-file.ts reads and writes.
import { isJsonObject, type JsonObject, type JsonValue } from '../../spec/index.ts';
import { matchRoute } from '../core/router.ts';
import { pactSortKey } from './pact-document.ts';

/** What merging gives: the document to write, and the keys where the file and the new pact disagree. */
export interface MergedPact {
  pact: JsonObject;
  /** Descriptions of interactions the new pact answers differently from the file (the file's are kept). */
  conflicts: string[];
  /** Interactions the new pact adds to the file. */
  added: number;
}

/** Why an existing file cannot take the new pact (it stays as it is). */
export class PactMergeRefusal extends Error {
  override readonly name = 'PactMergeRefusal';
}

const nameOf = (pact: JsonObject, side: 'consumer' | 'provider'): unknown => {
  const party = pact[side];
  return isJsonObject(party) ? party.name : undefined;
};

const versionOf = (pact: JsonObject): unknown => {
  const { metadata } = pact;
  const specification = isJsonObject(metadata) ? metadata.pactSpecification : undefined;
  return isJsonObject(specification) ? specification.version : undefined;
};

/** The key an interaction is merged by: its description, which names operation, method, status and state. */
function keyOf(interaction: JsonObject): string {
  return typeof interaction.description === 'string' ? interaction.description : JSON.stringify(interaction);
}

/** The order buildPact writes (operation in the spec's order, method, status, state), from the interaction itself. */
function orderOf(interaction: JsonObject): string {
  const request = isJsonObject(interaction.request) ? interaction.request : {};
  const response = isJsonObject(interaction.response) ? interaction.response : {};
  const method = typeof request.method === 'string' ? request.method : '';
  const path = typeof request.path === 'string' ? request.path : '';
  const route = matchRoute(method, path);
  const states = Array.isArray(interaction.providerStates) ? interaction.providerStates : [];
  const state = isJsonObject(states[0]) && typeof states[0].name === 'string' ? states[0].name : '';
  const status = typeof response.status === 'number' ? response.status : 0;
  // An interaction the kit did not write (no operation of the spec) goes last, by its description.
  if (route.kind !== 'operation') return `9999 ${keyOf(interaction)}`;
  // The description breaks a tie only between interactions another tool wrote (the kit's keys are unique).
  return `${pactSortKey(route.operationId, method, status, state)}\u0000${keyOf(interaction)}`;
}

/**
 * Checks what a file holds as a pact to merge into: JSON of a pact with interactions, the same consumer and provider
 * and the same specification as the new one; else a PactMergeRefusal saying what it holds.
 */
function existingInteractions(existing: JsonValue, pact: JsonObject): JsonObject[] {
  if (!isJsonObject(existing) || !Array.isArray(existing.interactions))
    throw new PactMergeRefusal('holds no pact (no interactions list); remove it or write another file');
  const [consumer, provider] = [nameOf(pact, 'consumer'), nameOf(pact, 'provider')];
  if (nameOf(existing, 'consumer') !== consumer || nameOf(existing, 'provider') !== provider)
    throw new PactMergeRefusal(
      `holds the pact of ${JSON.stringify(nameOf(existing, 'consumer'))} and ${JSON.stringify(nameOf(existing, 'provider'))}, not of ${JSON.stringify(consumer)} and ${JSON.stringify(provider)}; write another file`,
    );
  if (versionOf(existing) !== versionOf(pact))
    throw new PactMergeRefusal(
      `is Pact ${JSON.stringify(versionOf(existing))}, not ${JSON.stringify(versionOf(pact))}; write the same version or another file`,
    );
  if (!existing.interactions.every(isJsonObject))
    throw new PactMergeRefusal('holds an interaction that is not an object; remove it or write another file');
  return existing.interactions;
}

/**
 * The new pact merged into what a file holds (`existing` undefined: no file yet, the new pact as it is).
 * @example mergePact(JSON.parse(fileText), buildPact(core.pact.exchanges(), options)).conflicts // []
 */
export function mergePact(existing: JsonValue | undefined, pact: JsonObject): MergedPact {
  const incoming = Array.isArray(pact.interactions) ? pact.interactions.filter(isJsonObject) : [];
  if (existing === undefined) return { pact, conflicts: [], added: incoming.length };
  const byKey = new Map<string, JsonObject>();
  for (const interaction of existingInteractions(existing, pact)) byKey.set(keyOf(interaction), interaction);
  const conflicts: string[] = [];
  let added = 0;
  for (const interaction of incoming) {
    const key = keyOf(interaction);
    const held = byKey.get(key);
    if (held === undefined) {
      byKey.set(key, interaction);
      added += 1;
    } else if (JSON.stringify(held) !== JSON.stringify(interaction)) conflicts.push(key);
  }
  const ordered = [...byKey.values()]
    .map((interaction) => ({ interaction, order: orderOf(interaction) }))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
    .map(({ interaction }) => interaction);
  return { pact: { ...pact, interactions: ordered }, conflicts, added };
}
