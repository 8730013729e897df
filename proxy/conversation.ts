// What the proxy can only see across exchanges: the read-back of a deploy agrees with it (client/invariants.ts, the
// rules `diff` holds each server to), a deployed agent is retrievable, and no two answers mint the same id. It remembers
// a bounded window of what it saw (the last MAX_DEPLOYS deploys, the last MAX_IDS ids of each kind), so memory stays
// flat however long the app runs; a read-back of an agent deployed before the window is not judged.
import { getAtPointer, type JsonObject, type OperationId } from '../spec/index.ts';
import {
  agreementAt,
  mintedIdRules,
  newSubmissionRule,
  readBackAgreements,
  readBackCreation,
} from '../client/invariants.ts';
import { successStatus } from '../client/requests/operation-requests.ts';
import { shown, type ExchangeRef, type ParsedBodies, type ProxyViolation } from './exchange-check.ts';

/** Deploys remembered for their read-back (each holds its request and answer bodies, at most 1 MiB + 8 MiB). */
const MAX_DEPLOYS = 256;
/** Ids remembered per kind (agentIds, taskIds) for the uniqueness rule. */
const MAX_IDS = 10_000;

/** One exchange as the conversation rules need it: the request already judged, bodies still as text. */
export interface ObservedExchange {
  operationId: OperationId;
  method: string;
  /** The path as sent (for the finding), and the operation's template (for grouping). */
  path: string;
  template: string;
  parameters: Readonly<Record<string, string>>;
  /** Only requests that passed every request check teach the rules anything. */
  requestValid: boolean;
  status: number;
  /** The bodies, parsed once for every rule of the exchange. */
  json: ParsedBodies;
  at: Date;
  /**
   * Pointers of the answer the single-exchange checks already found broken: one cause, one violation, so a value that
   * breaks the schema is not compared again (neither as the deploy's word nor as the read-back's).
   */
  malformed: ReadonlySet<string>;
}

interface Deploy {
  sent: JsonObject;
  answer: JsonObject;
  malformed: ReadonlySet<string>;
  ref: ExchangeRef;
}

/** Remembers `value` under `key` as the newest entry, forgetting the oldest past `limit` (a Map keeps insertion order). */
function remember<V>(map: Map<string, V>, key: string, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}

const describe = (ref: ExchangeRef): string => `${ref.method} ${ref.path} (${ref.status}, ${ref.at})`;

/**
 * The rules across exchanges, fed every exchange the proxy checked, in the order their answers completed.
 * @example const conversation = new Conversation(); found.push(...conversation.observe(exchange));
 */
export class Conversation {
  readonly #deploys = new Map<string, Deploy>();
  readonly #ids = new Map<string, Map<string, ExchangeRef>>();

  observe(exchange: ObservedExchange): ProxyViolation[] {
    const { operationId, status } = exchange;
    const ref: ExchangeRef = { method: exchange.method, path: exchange.path, status, at: exchange.at.toISOString() };
    const place = {
      operationId,
      method: exchange.method,
      path: exchange.template,
      status,
      part: 'response' as const,
    };
    const found: ProxyViolation[] = [];
    const accepted = status >= 200 && status < 300;
    if (accepted && exchange.requestValid) {
      const minted = mintedIdRules(operationId);
      const queued = newSubmissionRule(operationId);
      const isDeploy = operationId === readBackCreation.creator;
      if (minted.length > 0 || queued || isDeploy) {
        const answer = exchange.json.response();
        if (answer === undefined) return found;
        for (const rule of minted) {
          const id = answer[rule.pointer.slice(1)];
          if (typeof id !== 'string') continue;
          const ids = this.#ids.get(rule.rule) ?? new Map<string, ExchangeRef>();
          this.#ids.set(rule.rule, ids);
          const earlier = ids.get(id);
          if (earlier)
            found.push({
              ...place,
              check: 'behaviour',
              rule: rule.rule,
              pointer: rule.pointer,
              expected: `a ${rule.pointer.slice(1)} no earlier answer returned`,
              found: shown(id),
              origin: 'seed',
              specPointer: rule.specPointer,
              message: `${describe(ref)} answered the ${rule.pointer.slice(1)} that ${describe(earlier)} already had`,
              exchanges: [earlier, ref],
            });
          remember(ids, id, ref, MAX_IDS);
        }
        if (queued && JSON.stringify(answer.status) !== JSON.stringify(queued.want))
          found.push({
            ...place,
            check: 'behaviour',
            rule: 'new-task-queued',
            pointer: queued.pointer,
            expected: shown(queued.want),
            found: shown(answer.status),
            origin: queued.origin,
            specPointer: queued.specPointer,
            message: 'a new task is queued',
          });
        const sent = isDeploy ? exchange.json.request() : undefined;
        const agentId = getAtPointer(answer, readBackCreation.field);
        if (sent && typeof agentId === 'string')
          remember(this.#deploys, agentId, { sent, answer, ref, malformed: exchange.malformed }, MAX_DEPLOYS);
      }
      if (operationId !== readBackCreation.readBack) return found;
    }
    if (operationId !== readBackCreation.readBack || !exchange.requestValid) return found;
    const id = exchange.parameters[readBackCreation.parameter];
    const deploy = id === undefined ? undefined : this.#deploys.get(id);
    if (!deploy) return found;
    const exchanges = [deploy.ref, ref];
    if (status === 404) {
      found.push({
        ...place,
        check: 'behaviour',
        rule: 'deployed-agent-retrievable',
        pointer: '',
        expected: `status ${successStatus(operationId).status}`,
        found: String(status),
        origin: 'seed',
        specPointer: successStatus(operationId).pointer,
        message: `${describe(ref)} did not find the agent ${describe(deploy.ref)} deployed`,
        exchanges,
      });
      return found;
    }
    const agent = accepted ? exchange.json.response() : undefined;
    if (agent === undefined) return found;
    for (const agreement of readBackAgreements(deploy.sent, deploy.answer)) {
      if (exchange.malformed.has(agreement.pointer)) continue;
      if (agreement.source !== undefined && (agreement.want === undefined || deploy.malformed.has(agreement.source)))
        continue;
      const { holds, found: value } = agreementAt(agreement, agent);
      if (holds) continue;
      found.push({
        ...place,
        check: 'behaviour',
        rule: 'retrieve-agrees-with-deploy',
        pointer: agreement.pointer,
        expected: shown(agreement.want),
        found: shown(value),
        origin: agreement.origin,
        specPointer: agreement.specPointer,
        message: `${agreement.pointer} of ${describe(ref)} is not ${agreement.why} (${describe(deploy.ref)})`,
        exchanges,
      });
    }
    return found;
  }

  clear(): void {
    this.#deploys.clear();
    this.#ids.clear();
  }
}
