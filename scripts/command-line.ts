// Parses a command line the same way for every entry point: strict flags, `--help`/`-h`, and one-line mistakes via cliError.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { cliError } from './cli-error.ts';

export type Parsed<T extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>
>['values'];

/**
 * `--flag -1` as `--flag=-1` for a flag that takes a value: parseArgs refuses a value starting with a dash as ambiguous,
 * while a negative number can only be that flag's value, which the flag's own check then judges in the kit's words.
 * @example withNegativeValues(['--port', '-1'], { port: { type: 'string' } }) // ['--port=-1']
 */
function withNegativeValues(args: string[], options: ParseArgsOptionsConfig): string[] {
  const result: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    const next = args[index + 1];
    if (
      arg.startsWith('--') &&
      options[arg.slice(2)]?.type === 'string' &&
      next !== undefined &&
      /^-\d|^-\.\d|^-Infinity$/.test(next)
    ) {
      result.push(`${arg}=${next}`);
      index += 1;
    } else result.push(arg);
  }
  return result;
}

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
      args: withNegativeValues(args, options),
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

/** What a numeric flag accepts; every bound is inclusive except `above`. */
export interface NumberRule {
  integer?: boolean;
  /** The value must be greater than this. */
  above?: number;
  min?: number;
  max?: number;
}

/**
 * The rule in words, for the one-line mistake.
 * @example describeNumberRule({ integer: true, min: 1 }) // 'a whole number of at least 1'
 */
export function describeNumberRule(rule: NumberRule): string {
  const kind = rule.integer ? 'a whole number' : 'a number';
  const { above, min, max } = rule;
  if (above !== undefined) return `${kind} above ${above}${max === undefined ? '' : ` and at most ${max}`}`;
  if (min !== undefined) return max === undefined ? `${kind} of at least ${min}` : `${kind} from ${min} to ${max}`;
  return max === undefined ? kind : `${kind} of at most ${max}`;
}

/**
 * Reads a number from flag text, or undefined when the text breaks the rule (empty, not finite, out of bounds).
 * @example readNumber('2.5', { above: 0 }) // 2.5
 */
export function readNumber(raw: string, rule: NumberRule): number | undefined {
  if (raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || (rule.integer && !Number.isInteger(value))) return undefined;
  if (rule.above !== undefined && value <= rule.above) return undefined;
  if (rule.min !== undefined && value < rule.min) return undefined;
  if (rule.max !== undefined && value > rule.max) return undefined;
  return value;
}

/**
 * A numeric flag's value; a mistake ends the process with one line naming the flag, the rule and the usage.
 * @example const rounds = numberFlag('rounds', values.rounds ?? '3', { integer: true, min: 1 }, usage);
 */
export function numberFlag(flag: string, raw: string, rule: NumberRule, usage: string): number {
  const value = readNumber(raw, rule);
  if (value === undefined)
    cliError(`--${flag} must be ${describeNumberRule(rule)}, got ${JSON.stringify(raw)}; ${usage}`);
  return value;
}

/**
 * A comma-separated flag whose items must each be one of `allowed`; a mistake ends the process with one line.
 * @example listFlag('targets', 'fake,prism', ['fake', 'prism', 'bare'], usage) // ['fake', 'prism']
 */
export function listFlag<T extends string>(flag: string, raw: string, allowed: readonly T[], usage: string): T[] {
  const values = raw
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  for (const value of values)
    if (!allowed.includes(value as T)) cliError(`--${flag} takes ${allowed.join(', ')}; got ${value}; ${usage}`);
  return values as T[];
}
