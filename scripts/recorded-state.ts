// `serve --from-recording FILE`: reads a recording of the proxy and hands back the agents the fake starts from.
import { readFileSync } from 'node:fs';
import type { Agent } from '../spec/index.ts';
import { consoleLogger } from '../mocks/core/logger.ts';
import { agentsOfRecording, RecordingError } from '../proxy/recorded-agents.ts';
import { terminalSafe } from '../client/terminal-text.ts';
import { cliError } from './cli-error.ts';

/**
 * The checked agents of the recording `file`; an unreadable file or one that is not a recording ends the process with
 * one line (exit 2), and each recorded agent that fails the checks is named in a warning and left out.
 * @example core.store.setStartingAgents(loadRecordedAgents('staging.json'));
 */
export function loadRecordedAgents(file: string): Agent[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
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
