// The operations that "create, then use" follows, from the spec's links and path parameters (spec/operation-links.ts):
// what creates a thing, the GET that reads it back, and the writes made on it. Contract checks, diff and bench ask
// here, so none of them names an operation itself.
import { getOperation, operationRoles, type BodyOperationId, type OperationId } from '../../spec/index.ts';
import { takesBody } from './operation-requests.ts';

/** One kind of thing a write creates, and the operations that use it. */
export interface Creation {
  /** The write whose answer supplies the parameter (e.g. a deploy). */
  creator: BodyOperationId;
  /** The path parameter it supplies (e.g. `agentId`) and where in its answer the value is. */
  parameter: string;
  field: string;
  /** The GET whose path ends with the parameter: reads back what was created. */
  readBack: OperationId | undefined;
  /** The POSTs that take the parameter: writes made on what was created (e.g. task submissions). */
  submissions: BodyOperationId[];
  /** Every operation that takes the parameter. */
  consumers: OperationId[];
}

function creationsOf(): Creation[] {
  const roles = operationRoles();
  return roles.creators.flatMap((creator) =>
    takesBody(creator)
      ? (roles.supplies.get(creator) ?? []).map((source) => {
          const consumers = roles.consumers.get(source.parameter) ?? [];
          return {
            creator,
            parameter: source.parameter,
            field: source.field,
            readBack: roles.readBack.get(source.parameter),
            submissions: consumers.filter(
              (id): id is BodyOperationId => getOperation(id).method === 'POST' && takesBody(id),
            ),
            consumers,
          };
        })
      : [],
  );
}

/**
 * Every creation the links describe, creators needing no path parameter first (in the spec's order).
 * @example creations.map((c) => `${c.creator} creates ${c.parameter}, read back by ${c.readBack}`)
 */
export const creations: readonly Creation[] = creationsOf();

/**
 * What an accepted request of an operation creates, for the plan's totals and --read-only: a creation (a deploy), or a
 * submission made on something created (a task); any other write creates neither.
 * @example acceptedWrites(creations[0].creator) // { deploys: 1, executes: 0 }
 */
export function acceptedWrites(operationId: OperationId): { deploys: number; executes: number } {
  if (getOperation(operationId).method !== 'POST') return { deploys: 0, executes: 0 };
  if (creations.some((c) => c.creator === operationId)) return { deploys: 1, executes: 0 };
  return creations.some((c) => c.submissions.includes(operationId as BodyOperationId))
    ? { deploys: 0, executes: 1 }
    : { deploys: 0, executes: 0 };
}

/**
 * The first creation whose result a GET reads back (the deploy of an agent, read back by its retrieve): what the
 * read-back, default-value and task checks follow. Throws when the spec links none.
 * @example const { creator, readBack, parameter } = primaryCreation();
 */
export function primaryCreation(): Creation & { readBack: OperationId } {
  const found = creations.find((candidate) => candidate.readBack !== undefined);
  if (!found?.readBack) throw new Error('spec/openapi.yaml links no creating operation to a GET that reads it back');
  return { ...found, readBack: found.readBack };
}
