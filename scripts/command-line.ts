// Parses a command line the same way for every entry point: strict flags, `--help`/`-h`, and one-line mistakes via cliError.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { cliError } from './cli-error.ts';

type Parsed<T extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>
>['values'];

/**
 * Parses `args` against `options`, typed from them. An unknown flag or a missing value ends the process with one line
 * and the usage; `--help` prints `help` (or the usage) and exits 0.
 * @example
 * const values = parseCommandLine({ port: { type: 'string' } }, { usage: 'usage: npm start -- [--port <n>]' });
 * values.port; // string | undefined
 */
export function parseCommandLine<const T extends ParseArgsOptionsConfig>(
  options: T,
  text: { usage: string; help?: string },
  args: string[] = process.argv.slice(2),
): Parsed<T> {
  let values: Parsed<T> & { help?: boolean | undefined };
  try {
    values = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }).values as Parsed<T> & { help?: boolean | undefined };
  } catch (error) {
    cliError(`${(error instanceof Error ? error.message : String(error)).replaceAll('\n', ' ')}; ${text.usage}`);
  }
  if (values.help === true) {
    process.stdout.write(`${text.help ?? text.usage}\n`);
    process.exit(0);
  }
  return values;
}
