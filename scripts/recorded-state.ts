// `serve --from-recording FILE`: reads a recording of the proxy and hands back the agents the fake starts from.
import type { Agent, JsonValue } from '../spec/index.ts';
import { isJsonObject } from '../spec/index.ts';
import { consoleLogger } from '../mocks/domain/logger.ts';
import { agentsOfRecording, RecordingError } from '../proxy/recorded-agents.ts';
import { MAX_CLI_INPUT_BYTES } from '../verifier-client/bounded-read.ts';
import { terminalSafe } from '../verifier-client/terminal-text.ts';
import { createJsonItemStream, feedFile } from '../spec-change/json-item-stream.ts';
import { cliError } from './cli-error.ts';

/** Recordings nest about 5 deep; deeper input is refused, as the parser keeps one frame per level. */
const MAX_DEPTH = 64;

/** A recorded exchange that can hold an agent: a 200 answer to a GET. */
function mayHoldAgent(exchange: JsonValue): boolean {
  return (
    isJsonObject(exchange) &&
    isJsonObject(exchange.request) &&
    exchange.request.method === 'GET' &&
    isJsonObject(exchange.response) &&
    exchange.response.status === 200
  );
}

/**
 * The recording in `file`, read as spec-change reads one: streamed in chunks, one exchange at a time, each at most
 * 16 MiB (the proxy cuts bodies at 64 KiB), so neither a large recording nor `/dev/zero` is held whole. Only the
 * exchanges that may hold an agent are kept, at their index (the array has holes, which the warnings' indices need).
 */
function readRecording(file: string): JsonValue {
  const members: Record<string, JsonValue> = {};
  const exchanges: JsonValue[] = [];
  const stream = createJsonItemStream({
    paths: ['$.format', '$.version', '$.baseUrl', '$.exchanges.*'],
    itemDepth: 2,
    maxBytes: MAX_CLI_INPUT_BYTES,
    maxDepth: MAX_DEPTH,
    onItem: ({ value, keys }) => {
      if (keys[0] !== 'exchanges') members[String(keys[0])] = value;
      else if (mayHoldAgent(value)) exchanges[Number(keys[1])] = value;
    },
  });
  feedFile(file, stream);
  return stream.topLevel.kinds.get('exchanges') === 'array' ? { ...members, exchanges } : members;
}

/**
 * The checked agents of the recording `file`; an unreadable file or one that is not a recording ends the process with
 * one line (exit 2), and each recorded agent that fails the checks is named in a warning and left out.
 * @example core.store.setStartingAgents(loadRecordedAgents('staging.json'));
 */
export function loadRecordedAgents(file: string): Agent[] {
  let value: unknown;
  try {
    value = readRecording(file);
  } catch (error) {
    cliError(
      `cannot read --from-recording ${file} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
  try {
    const { agents, refused } = agentsOfRecording(value);
    for (const line of refused) consoleLogger.warn(terminalSafe(`--from-recording ${file}: left out ${line}`));
    consoleLogger.info(`starting from ${agents.length} recorded agent(s) of ${file}`);
    return agents;
  } catch (error) {
    if (error instanceof RecordingError) cliError(`--from-recording ${file}: ${error.message}`);
    throw error;
  }
}
