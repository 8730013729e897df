// `agent-registry-kit diff`: runs one seeded script against a fake and a real server and says where the fake diverges.
import { writeFileSync } from 'node:fs';
import { cliError, runCommand } from '../cli-error.ts';
import { parseCommandLine } from '../command-line.ts';
import { requirePeers } from '../optional-peers.ts';
import { guardWrites } from '../../verifier-client/terminal-text.ts';
import { createRedactor } from '../../verifier-client/redaction.ts';
import { normalizeToken } from '../../contract-tests/run-options.ts';
import type { DiffTarget } from '../../differential/diff-run.ts';
import { buildDiffReport, formatDiffReport } from '../../differential/diff-report.ts';

const defaultTimeoutMs = 10_000;

const help = `Usage: agent-registry-kit diff --fake <url> --real <url> [options]   (npm run diff -- …)

Sends one seeded script to both servers (deploys of varied valid bodies from the spec's schemas, retrieves, task
submissions, unknown agents, invalid bodies, bad tokens) and compares them exchange by exchange: status, Content-Type,
the fields present and their JSON types, the values the spec pins, conformance, and the invariants each keeps
(retrieve agrees with deploy, defaults applied, ids unique, new tasks queued). Exit status 1 when they diverge.

Environment:
  FAKE_TOKEN, REAL_TOKEN   bearer token of each server; API_TOKEN is used for a side without its own. Never printed.
  FAKE_AGENT_ID, REAL_AGENT_ID, API_AGENT_ID   an existing agent of each server (needed by --read-only)

Options:
  --fake <url>          the fake's {base_url}, without /v1 (e.g. http://127.0.0.1:4010)
  --real <url>          the real server's {base_url}, without /v1
  --seed <n>            seed of the generated bodies (default: random, printed)
  --max-writes <n>      cap on POSTs sent to each server; steps it leaves out are listed and fail the run
                        (default: the whole script)
  --read-only           send only GETs and requests a correct server rejects (needs an existing agent on each side)
  --agent <id>          the existing agent, when both servers know the same id (else the *_AGENT_ID variables)
  --json <file>         write every step, both exchanges (tokens redacted), the divergences and the value rules
  --timeout <ms>        per-request timeout (default ${defaultTimeoutMs})
  -h, --help            show this help
`;

const usage = 'usage: agent-registry-kit diff --fake <url> --real <url> [options]; see --help';

function parseBaseUrl(flag: string, raw: string | undefined): string {
  if (raw === undefined || raw === '') cliError(`${flag} is required; ${usage}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    cliError(`${flag} is not a URL ("${raw}"); give e.g. http://127.0.0.1:4010`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    cliError(`${flag} must be http or https, got ${url.protocol}`);
  if (url.username || url.password)
    cliError(`${flag} must not carry credentials; put the token in FAKE_TOKEN/REAL_TOKEN`);
  const base = url.href.replace(/\/+$/, '');
  if (/\/v1$/.test(base))
    cliError(`${flag} must not end with /v1 (the script adds it); give ${base.replace(/\/v1$/, '')}`);
  return base;
}

function parseCount(flag: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min)
    cliError(`${flag} must be a whole number${min > 0 ? ` of at least ${min}` : ''}, got "${text}"`);
  return Number(text);
}

async function probe(side: string, target: DiffTarget, timeoutMs: number): Promise<void> {
  try {
    const answer = await fetch(`${target.baseUrl}/v1/agents/diff-probe`, {
      headers: { authorization: `Bearer ${target.token}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Only that something answers matters: the body is never read (an endless one would fill the memory).
    await answer.body?.cancel();
  } catch (error) {
    const reason =
      error instanceof DOMException && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : error instanceof Error && error.cause instanceof Error
          ? error.cause.message
          : String(error);
    cliError(
      `cannot reach the ${side} server at ${target.baseUrl} (${createRedactor(target.token)(reason)}); is it running?`,
    );
  }
}

/**
 * Entry point of the `diff` subcommand.
 * @example await main(['--fake', 'http://127.0.0.1:4010', '--real', 'https://api.example.com', '--json', 'diff.json']);
 */
export async function main(args: string[]): Promise<void> {
  // Server text (bodies, names, paths) reaches stdout and stderr: never with its control characters raw.
  guardWrites(process.stdout);
  guardWrites(process.stderr);
  const values = parseCommandLine(
    {
      fake: { type: 'string' },
      real: { type: 'string' },
      seed: { type: 'string' },
      'max-writes': { type: 'string' },
      'read-only': { type: 'boolean' },
      agent: { type: 'string' },
      json: { type: 'string' },
      timeout: { type: 'string' },
    },
    { usage, help },
    args,
  );
  const fakeUrl = parseBaseUrl('--fake', values.fake);
  const realUrl = parseBaseUrl('--real', values.real);
  const env = process.env;
  // The contract suite's normalization: what is sent, redacted and compared is the token fetch actually sends.
  const tokenFrom = (name: string): string | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    try {
      return normalizeToken(raw);
    } catch (error) {
      return cliError((error instanceof Error ? error.message : String(error)).replaceAll('API_TOKEN', name));
    }
  };
  const shared = tokenFrom('API_TOKEN');
  const fakeToken = tokenFrom('FAKE_TOKEN') ?? shared;
  const realToken = tokenFrom('REAL_TOKEN') ?? shared;
  if (!fakeToken || !realToken)
    cliError(
      `${!fakeToken && !realToken ? 'no token is set' : `${!fakeToken ? 'FAKE_TOKEN' : 'REAL_TOKEN'} is not set`}; export FAKE_TOKEN and REAL_TOKEN, or API_TOKEN for both (for the fake: npm run -s token)`,
    );
  const seed =
    values.seed === undefined
      ? Math.floor(Math.random() * 2 ** 31)
      : /^\d{1,10}$/.test(values.seed)
        ? Number(values.seed)
        : cliError(`--seed must be a whole number, got "${values.seed}"`);
  const readOnly = values['read-only'] === true;
  const fakeAgent = values.agent ?? (env.FAKE_AGENT_ID || env.API_AGENT_ID || undefined);
  const realAgent = values.agent ?? (env.REAL_AGENT_ID || env.API_AGENT_ID || undefined);
  if (readOnly && (fakeAgent === undefined || realAgent === undefined))
    cliError(
      '--read-only needs an existing agent on each server; pass --agent <id>, or export FAKE_AGENT_ID and REAL_AGENT_ID',
    );
  const timeoutMs = parseCount('--timeout', values.timeout, 1) ?? defaultTimeoutMs;
  // The script's generated bodies come from fast-check, an optional peer of the kit: loaded once it is known present.
  requirePeers('diff', ['fast-check']);
  const [{ buildScript, defaultScriptOptions }, { derivedSecrets, runDiff }] = await Promise.all([
    import('../../differential/diff-script.ts'),
    import('../../differential/diff-run.ts'),
  ]);
  const script = buildScript({
    seed,
    ...defaultScriptOptions,
    existingAgent: fakeAgent !== undefined && realAgent !== undefined,
  });
  const scriptPosts = script.filter((step) => step.method === 'POST' && !(readOnly && step.creates)).length;
  const maxWrites = parseCount('--max-writes', values['max-writes'], 0) ?? scriptPosts;
  const sameToken = fakeToken === realToken;
  const fake: DiffTarget = {
    baseUrl: fakeUrl,
    token: fakeToken,
    tokenLabel: sameToken ? '<API_TOKEN>' : '<FAKE_TOKEN>',
    agentId: fakeAgent,
  };
  const real: DiffTarget = {
    baseUrl: realUrl,
    token: realToken,
    tokenLabel: sameToken ? '<API_TOKEN>' : '<REAL_TOKEN>',
    agentId: realAgent,
  };
  const redactFake = createRedactor(fakeToken, derivedSecrets(fakeToken));
  const redactReal = createRedactor(realToken, derivedSecrets(realToken));
  const redact = (text: string): string => redactFake(redactReal(text));

  await probe('fake', fake, timeoutMs);
  await probe('real', real, timeoutMs);
  const creates = script.filter((step) => step.creates && !readOnly).length;
  process.stdout.write(
    `agent-registry-kit diff: fake ${fakeUrl} vs real ${realUrl}${readOnly ? ' (read-only)' : ''}, seed ${seed}\n` +
      `  ${script.length} steps; at most ${Math.min(maxWrites, scriptPosts)} POSTs per server (--max-writes ${maxWrites}), of which ${creates} create something (deploys, tasks) and the rest are requests a correct server rejects\n\n`,
  );
  const startedAt = new Date();
  const result = await runDiff({ fake, real, seed, maxWrites, readOnly, timeoutMs });
  const report = buildDiffReport(result, {
    fake: fakeUrl,
    real: realUrl,
    seed,
    readOnly,
    maxWrites,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
  });
  process.stdout.write(redact(formatDiffReport(report, Math.max(100, Math.min(process.stdout.columns ?? 120, 200)))));
  if (values.json) writeFileSync(values.json, `${redact(JSON.stringify(report, null, 2))}\n`);
  process.exitCode = report.verdict === 'agree' ? 0 : 1;
}

if (import.meta.main) await runCommand(main, process.argv.slice(2));
