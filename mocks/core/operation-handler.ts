// What one operation of the API is given and answers: the contract between the core's generic dispatch and mocks/operations/*.
import type {
  BodyOperationId,
  CookieParameters,
  HeaderParameters,
  OperationId,
  PathParameters,
  QueryParameters,
  RequestBodies,
} from '../../spec/index.ts';
import type { MockResponse } from './mock-http.ts';
import { problemResponse } from './problems.ts';
import type { AgentStore } from '../state/store/store.ts';

/**
 * A request the core has already routed, authenticated, checked against `Prefer` and scenarios, and whose parameters
 * (every location the operation declares) and body passed the spec's validators.
 */
export interface OperationRequest<K extends OperationId> {
  /** Path parameters, percent-decoded and valid. */
  params: PathParameters<K>;
  /** Query parameters, read by their style, in the schema's types, valid, the spec's defaults filled in. */
  query: QueryParameters<K>;
  /** Header parameters by the name the spec gives them, read as the query is. */
  headers: HeaderParameters<K>;
  /** Cookie parameters, read as the query is. */
  cookies: CookieParameters<K>;
  /** The validated JSON body with the spec's defaults filled in; undefined for operations without a body. */
  body: K extends BodyOperationId ? RequestBodies[K] : undefined;
  /** The token's `sub`. */
  caller: string;
  /** The request path, for problem `instance`s. */
  instance: string;
}

/** What an operation may use of the core. */
export interface OperationServices {
  store: AgentStore;
  /** Resolves once a mutation is durable (the state file); call it before acknowledging one. */
  persist(): Promise<void>;
  /**
   * `response` once every change made so far is durable: at once when the storage keeps nothing beyond the process (in
   * memory, where `persist` has nothing to wait for), else after `persist()`. What a mutating operation returns.
   * @example return acknowledge(jsonValueResponse(200, submission));
   */
  acknowledge(response: MockResponse): MockResponse | Promise<MockResponse>;
}

/** One operation's implementation. */
export type OperationHandler<K extends OperationId> = (
  request: OperationRequest<K>,
  services: OperationServices,
) => MockResponse | Promise<MockResponse>;

/**
 * What an operation's answer reads of the records the state holds (agents and tasks, which another process sharing the
 * storage may have written), besides its request and the control state (scenarios, overrides, clock), which it always
 * reads. Declared per operation in the operation table; a layer around the dispatch decides from it, never from the
 * method or the path (mocks/storage/postgres/replica-dispatch.ts: what a replica must pull before answering).
 * - `'stored-records'`: it reads agents or tasks (a GET, a change to a record, a list, a search). Always correct.
 * - `'no-stored-records'`: it reads none (a deploy makes a new agent; `--max-agents` is then counted from memory as
 *   it is). A replica answers it without pulling the others' writes first; its batch is checked when it is written.
 */
export type StoredReads = 'stored-records' | 'no-stored-records';

/** One operation's entry in the operation table: its handler and what it declares. */
interface OperationEntry<K extends OperationId> {
  handle: OperationHandler<K>;
  /** Required: an operation added without stating what it reads is a type error (see StoredReads). */
  reads: StoredReads;
}

/** Every operation of spec/openapi.yaml to its entry: an operation without one, or an entry without a field, is a type error. */
export type OperationTable = { [K in OperationId]: OperationEntry<K> };

/**
 * The 404 of an unknown agent, shared by the operations that take an agentId.
 * @example agentNotFound('agt_x', '/v1/agents/agt_x').status // 404
 */
export function agentNotFound(agentId: string, instance: string): MockResponse {
  // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
  return problemResponse('agent-not-found', { detail: `No agent has the id ${agentId}.`, instance });
}
