// The one way a command-line entry point reports a usage or environment mistake: one line, then a non-zero exit.
import { LOG_PREFIX } from '../mocks/logger.ts';

/**
 * Prints `agent-registry-kit: <message>` to stderr and exits with status 2.
 * @example cliError('API_BASE_URL is not set; export API_BASE_URL=https://api.example.com');
 */
export function cliError(message: string, exitCode = 2): never {
  process.stderr.write(`${LOG_PREFIX} ${message}\n`);
  process.exit(exitCode);
}
