// What the proxy can only see across exchanges: the read-back of a deploy agrees with it (verifier-client/invariants.ts, the
// rules `diff` holds each server to), a deployed agent is retrievable, and no two answers mint the same id. It remembers
// a bounded window of what it saw, in count and in bytes: of each deploy only the values its read-back must show (not
// the bodies), of each id only ids of at most MAX_ID_LENGTH characters, so memory stays flat however long the app runs
// and whatever the server answers; a read-back of an agent deployed before the window is not judged.
import { getAtPointer, type JsonObject, type OperationId, type RuleOrigin } from '../spec/index.ts';
import {
  agreementAt,
  mintedIdRules,
  newSubmissionRule,
  readBackAgreements,
  readBackCreation,
  reportCovers,
  type ReadBackAgreement,
} from '../verifier-client/invariants.ts';
import { successStatus } from '../verifier-client/requests/operation-requests.ts';
import { shown, type ExchangeRef, type ParsedBodies, type ProxyViolation } from './exchange-check.ts';

/** Deploys remembered for their read-back, at most. */
const MAX_DEPLOYS = 256;
/** Bytes (JSON text) of the values all remembered deploys hold together, at most: the oldest are forgotten past it. */
const MAX_DEPLOY_BYTES = 4 * 1024 * 1024;
/** Bytes of one deploy's values; a deploy whose read-back must show more is not remembered. */
const MAX_ONE_DEPLOY_BYTES = 64 * 1024;
/** Ids remembered per kind (agentIds, taskIds) for the uniqueness rule. */
const MAX_IDS = 10_000;
/** Characters of an id remembered; a longer one (the schema's ids are far shorter) is not. */
const MAX_ID_LENGTH = 256;
/** Characters of an exchange's path a finding names; a longer one is cut and marked. */
const MAX_REF_PATH = 512;

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
   * Pointers of the answer the single-exchange checks already found broken, with the origin of what broke there (seed
   * when any seed rule did): one cause, one violation, so a value that breaks the schema is not compared again (neither
   * as the deploy's word nor as the read-back's), unless only an assumption broke and the comparison is the seed's.
   */
  malformed: ReadonlyMap<string, RuleOrigin>;
}

/** What a deploy leaves for its read-back: the values it must show, the deploy's place, and their size in bytes. */
interface Deploy {
  agreements: ReadBackAgreement[];
  ref: ExchangeRef;
  bytes: number;
}

/**
 * What the read-back of a deploy must agree with, kept as those values only: what was sent (bounded by the request
 * schema, since only valid requests teach the rules) and the few answered fields the link echoes, minus those the
 * single-exchange checks found broken. undefined when they take more than MAX_ONE_DEPLOY_BYTES.
 */
function deployMemory(
  sent: JsonObject,
  answer: JsonObject,
  malformed: ReadonlyMap<string, RuleOrigin>,
  ref: ExchangeRef,
) {
  const agreements = readBackAgreements(sent, answer).filter(
    (agreement) =>
      agreement.source === undefined ||
      (agreement.want !== undefined && !reportCovers(malformed.get(agreement.source), agreement.origin)),
  );
  let bytes = ref.path.length + 64;
  for (const agreement of agreements) {
    bytes += agreement.pointer.length + agreement.why.length + agreement.specPointer.length;
    bytes += agreement.want === undefined ? 0 : JSON.stringify(agreement.want).length;
    if (bytes > MAX_ONE_DEPLOY_BYTES) return undefined;
  }
  return { agreements, ref, bytes };
}

/** An exchange's reference as findings name it, its path cut to MAX_REF_PATH characters. */
function refOf(exchange: ObservedExchange): ExchangeRef {
  const path = exchange.path.length > MAX_REF_PATH ? `${exchange.path.slice(0, MAX_REF_PATH)}…` : exchange.path;
  return { method: exchange.method, path, status: exchange.status, at: exchange.at.toISOString() };
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
  #deployBytes = 0;
  readonly #ids = new Map<string, Map<string, ExchangeRef>>();

  observe(exchange: ObservedExchange): ProxyViolation[] {
    const { operationId, status } = exchange;
    const ref = refOf(exchange);
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
          if (typeof id !== 'string' || id.length > MAX_ID_LENGTH) continue;
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
        if (sent && typeof agentId === 'string' && agentId.length <= MAX_ID_LENGTH) {
          const memory = deployMemory(sent, answer, exchange.malformed, ref);
          if (memory) this.#rememberDeploy(agentId, memory);
        }
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
    for (const agreement of deploy.agreements) {
      if (reportCovers(exchange.malformed.get(agreement.pointer), agreement.origin)) continue;
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

  /** Keeps a deploy's memory as the newest, forgetting the oldest past MAX_DEPLOYS or MAX_DEPLOY_BYTES. */
  #rememberDeploy(agentId: string, memory: Deploy): void {
    const replaced = this.#deploys.get(agentId);
    if (replaced) this.#deployBytes -= replaced.bytes;
    this.#deploys.delete(agentId);
    this.#deploys.set(agentId, memory);
    this.#deployBytes += memory.bytes;
    for (const [oldest, forgotten] of this.#deploys) {
      if (this.#deploys.size <= MAX_DEPLOYS && this.#deployBytes <= MAX_DEPLOY_BYTES) break;
      this.#deploys.delete(oldest);
      this.#deployBytes -= forgotten.bytes;
    }
  }

  /** What the window holds: deploys and their bytes, ids per kind (for the bounds' tests). */
  get held(): { deploys: number; deployBytes: number; ids: number } {
    let ids = 0;
    for (const kind of this.#ids.values()) ids += kind.size;
    return { deploys: this.#deploys.size, deployBytes: this.#deployBytes, ids };
  }

  clear(): void {
    this.#deploys.clear();
    this.#deployBytes = 0;
    this.#ids.clear();
  }
}
