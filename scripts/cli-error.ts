// The one way a command-line entry point reports a usage or environment mistake (one line, exit 2) or its own crash
// (one line, exit 70): neither may look like exit 1, which means "found a problem".
import { terminalSafe } from '../verifier-client/terminal-text.ts';
import { LOG_PREFIX } from '../mocks/domain/logger.ts';

/** Exit status of a crash of the kit itself: EX_SOFTWARE of sysexits.h, never 1 (a finding) or 2 (a mistake). */
const crashExitCode = 70;

/**
 * Prints `agent-registry-kit: <message>` to stderr and exits with status 2.
 * @example cliError('API_BASE_URL is not set; export API_BASE_URL=https://api.example.com');
 */
export function cliError(message: string, exitCode = 2): never {
  // The message may quote what it refuses (a flag's value, a stored record's id): its controls are printed as escapes.
  process.stderr.write(`${LOG_PREFIX} ${terminalSafe(message)}\n`);
  process.exit(exitCode);
}

/**
 * Reports a crash in one line (the message and where it was thrown) and exits 70.
 * @example process.on('uncaughtException', crashed);
 */
export function crashed(error: unknown): never {
  const message = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  const frame = error instanceof Error ? error.stack?.split('\n').find((line) => /^\s+at /.test(line)) : undefined;
  cliError(
    `internal error, a bug in the kit (please report it): ${message}${frame ? ` (${frame.trim()})` : ''}`,
    crashExitCode,
  );
}

/**
 * Runs a subcommand's `main`; a crash becomes one line and exit 70 instead of Node's stack trace and exit 1.
 * @example if (import.meta.main) await runCommand(main, process.argv.slice(2));
 */
export async function runCommand(main: (args: string[]) => Promise<void> | void, args: string[]): Promise<void> {
  try {
    await main(args);
  } catch (error) {
    crashed(error);
  }
}
