// Reads a recording (proxy --record) back as the fake's starting state: the last answer the real server gave for each
// agent the app retrieved, every one checked like a record of a --state database before the fake serves it.
import { isJsonObject } from '../spec/index.ts';
import type { Agent } from '../spec/index.ts';
import { checkStoredAgent } from '../mocks/storage/stored-records.ts';
import { RECORDING_FORMAT } from './recording.ts';

/** Thrown when the file is not a recording at all; the message says what was expected. */
export class RecordingError extends Error {}

export interface RecordedAgents {
  /** In the order the app first saw them; the latest answer for each. */
  agents: Agent[];
  /** One line per recorded agent refused, with where it is and why. */
  refused: string[];
}

const agentPath = /^\/v1\/agents\/([^/?#]+)(?:[?#].*)?$/;

function pathOf(url: string, baseUrl: string): string {
  const rest = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
  try {
    return new URL(rest, 'http://recording.invalid').pathname;
  } catch {
    return rest;
  }
}

/**
 * The agents of a recording: each 200 answer to GET /v1/agents/{agentId} whose body is a whole Agent by the spec (the
 * checks of mocks/storage/stored-records.ts); the others are listed in `refused`.
 * @example agentsOfRecording(JSON.parse(readFileSync('staging.json', 'utf8'))).agents.length
 */
export function agentsOfRecording(value: unknown): RecordedAgents {
  if (
    !isJsonObject(value) ||
    value.format !== RECORDING_FORMAT ||
    value.version !== 1 ||
    !Array.isArray(value.exchanges)
  )
    throw new RecordingError(
      `the file is not a recording (expected {"format": "${RECORDING_FORMAT}", "version": 1, "exchanges": [...]}, written by proxy --record)`,
    );
  const baseUrl = typeof value.baseUrl === 'string' ? value.baseUrl : '';
  const agents = new Map<string, Agent>();
  const refused: string[] = [];
  value.exchanges.forEach((exchange, index) => {
    if (!isJsonObject(exchange) || !isJsonObject(exchange.request) || !isJsonObject(exchange.response)) return;
    const { method, url } = exchange.request;
    const { status, body } = exchange.response;
    if (method !== 'GET' || typeof url !== 'string' || status !== 200) return;
    const match = agentPath.exec(pathOf(url, baseUrl));
    if (!match || match[1] === 'deploy') return;
    const checked = checkStoredAgent(body);
    if (!checked.ok) {
      refused.push(`/exchanges/${index} (GET ${match[1]}): the agent ${checked.reason}`);
      return;
    }
    agents.set(checked.value.agentId, checked.value);
  });
  return { agents: [...agents.values()], refused };
}
