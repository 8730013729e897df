// `agent-registry-kit serve` (and `npm start`): the fake backend on node:http (default http://127.0.0.1:4010), configured
// by flags or environment variables.
import { enableCompileCache } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { guardWrites } from '../../verifier-client/terminal-text.ts';
import { cliError } from '../cli-error.ts';
import { parseCommandLine } from '../command-line.ts';
import { requirePeers } from '../optional-peers.ts';
import { stopWithLauncher } from '../stop-with-launcher.ts';
import type { MockCoreOptions } from '../../mocks/assembly/mock-core.ts';
import type { Storage } from '../../mocks/state/storage.ts';

// Node's on-disk compile cache (in the OS temp dir) keeps the type-stripped, compiled modules between runs, which cuts
// the fake's start (docs/performance.md, "Cold start"). It must be on before the fake's modules load, hence the dynamic
// imports in main.
enableCompileCache();

const usage =
  'usage: agent-registry-kit serve [--port <n>] [--host <addr>] [--seed <seed>] [--state <store.db|postgres://…>] [--from-recording <file>] [--agents <n>] [--failure-ratio <r>] [--journal-size <n>] [--max-tasks <n>] [--max-agents <n>] [--max-sessions <n>] [--session-records <n>] [--cors-origin <origin>]... [--allowed-host <name>]... [--control-token <secret>] [--unsafe-open-control-plane] [--help]';
const help = (defaultSeed: string | number): string => `${usage}

  --port <n>             port to listen on; 0 picks a free one (env PORT, default 4010)
  --host <addr>          interface to bind (env HOST, default 127.0.0.1)
  --seed <seed>          seed of the catalogue and every random choice (env MOCK_SEED, default ${defaultSeed})
  --state <store.db>     keep the store in this SQLite database (each answered change is on disk first; one server per file)
  --state postgres://user@host:port/db
                         keep it in PostgreSQL, shared by every replica started on that database (env MOCK_STATE)
  --from-recording <file>  start from the agents a recording of proxy --record saw (each checked; see docs/proxy.md);
                         the seeded catalogue is then empty unless --agents says otherwise
  --agents <n>           number of seeded agents (env MOCK_AGENTS, default 36)
  --failure-ratio <r>    share of tasks that fail, 0..1 (env MOCK_FAILURE_RATIO, default 0.1)
  --journal-size <n>     requests the journal keeps (default 1000)
  --max-tasks <n>        tasks the history keeps, and unfinished tasks at most (default 10000)
  --max-agents <n>       deployed agents kept at most; a deploy beyond is 503 state-not-saved until a reset
                         (default 1000000; each costs 2-3 KB of RSS as typically deployed, 12 KB at maximum sizes)
  --max-sessions <n>     sessions (X-Mock-Session) kept at once, least recently used evicted; 0 = off (default 100)
  --session-records <n>  records all sessions hold together, and each alone, at most: agents, tasks, journal
                         entries, 1 per KiB of overrides (default 100000)
  --cors-origin <origin> allow only this browser origin (repeatable; env MOCK_CORS_ORIGINS, comma-separated; default any)
  --allowed-host <name>  also accept requests whose Host is this name (repeatable; .example.test = a domain and its
                         subdomains; * = any; env MOCK_ALLOWED_HOSTS, comma-separated; default loopback names only)
  --control-token <secret>  the control plane (/__mock/) requires this value in X-Mock-Control-Token
                         (env MOCK_CONTROL_TOKEN, preferred: a flag shows in ps); required when --host is not loopback
  --unsafe-open-control-plane  leave the control plane without a token on a non-loopback --host
  env MOCK_JWT_SECRET    HS256 secret of accepted tokens (default agent-registry-kit-dev-secret)

When listening, prints: agent-registry-kit: fake backend listening on http://<host>:<port>`;

/** What `serve` was asked for, checked: one line and exit 2 for each mistake before anything starts. */
interface ServeSettings {
  port: number;
  host: string;
  seed: string;
  state: string | undefined;
  fromRecording: string | undefined;
  agents: number;
  failureRatio: number;
  journalSize: number;
  maxTasks: number;
  maxAgents: number;
  sessions: { max: number; maxRecords: number };
  origins: string[] | undefined;
  allowedHosts: string[];
  controlToken: string | undefined;
  unsafeOpenControlPlane: boolean;
}

/** The limits the settings are checked against, from modules `main` loads lazily. */
interface SettingLimits {
  defaultSeed: string | number;
  maxCatalogueSize: number;
  defaultMaxAgents: number;
}

const flags = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  state: { type: 'string' },
  'from-recording': { type: 'string' },
  agents: { type: 'string' },
  'failure-ratio': { type: 'string' },
  'journal-size': { type: 'string' },
  'max-tasks': { type: 'string' },
  'max-agents': { type: 'string' },
  'max-sessions': { type: 'string' },
  'session-records': { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  'control-token': { type: 'string' },
  'unsafe-open-control-plane': { type: 'boolean' },
} as const;

type ServeFlags = ReturnType<typeof parseCommandLine<typeof flags>>;

/** A comma-separated list from the environment, trimmed, empty items dropped. */
function listFromEnv(text: string | undefined): string[] | undefined {
  return text
    ? text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : undefined;
}

function readSettings(values: ServeFlags, env: NodeJS.ProcessEnv, limits: SettingLimits): ServeSettings {
  const portText = values.port ?? env.PORT ?? '4010';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    cliError(`port must be a whole number from 0 to 65535, got ${portText} (--port or PORT)`);
  const host = values.host ?? env.HOST ?? '127.0.0.1';
  if (host === '') cliError('host must not be empty (--host or HOST)');
  const seed = values.seed ?? env.MOCK_SEED ?? String(limits.defaultSeed);
  if (seed === '') cliError('seed must not be empty (--seed or MOCK_SEED)');
  const fromRecording = values['from-recording'];
  if (fromRecording === '') cliError('--from-recording needs the file written by proxy --record');
  if (fromRecording !== undefined && values.state !== undefined)
    cliError('--from-recording and --state cannot be combined: a state database already has its own starting state');
  const agentsText = values.agents ?? env.MOCK_AGENTS ?? (fromRecording === undefined ? '36' : '0');
  if (!/^\d{1,7}$/.test(agentsText) || Number(agentsText) > limits.maxCatalogueSize)
    cliError(`--agents must be a whole number from 0 to ${limits.maxCatalogueSize}, got ${agentsText}`);
  const ratioText = values['failure-ratio'] ?? env.MOCK_FAILURE_RATIO ?? '0.1';
  const failureRatio = Number(ratioText);
  if (ratioText.trim() === '' || !Number.isFinite(failureRatio) || failureRatio < 0 || failureRatio > 1)
    cliError(`--failure-ratio must be a number from 0 to 1, got ${ratioText}`);
  const bound = (flag: BoundFlag, fallback: number, min = 1): number => readBound(values[flag], flag, fallback, min);
  const controlToken = values['control-token'] ?? (env.MOCK_CONTROL_TOKEN || undefined);
  if (controlToken !== undefined && !/^\S+$/.test(controlToken))
    cliError('--control-token (or MOCK_CONTROL_TOKEN) must be a non-empty value without spaces');
  return {
    port: Number(portText),
    host,
    seed,
    state: values.state ?? (env.MOCK_STATE || undefined),
    fromRecording,
    agents: Number(agentsText),
    failureRatio,
    journalSize: bound('journal-size', 1000),
    maxTasks: bound('max-tasks', 10_000),
    maxAgents: bound('max-agents', limits.defaultMaxAgents),
    sessions: { max: bound('max-sessions', 100, 0), maxRecords: bound('session-records', 100_000, 0) },
    origins: readCorsOrigins(values['cors-origin'] ?? listFromEnv(env.MOCK_CORS_ORIGINS)),
    allowedHosts: readAllowedHosts(values['allowed-host'] ?? listFromEnv(env.MOCK_ALLOWED_HOSTS) ?? []),
    controlToken,
    unsafeOpenControlPlane: values['unsafe-open-control-plane'] ?? false,
  };
}

type BoundFlag = 'journal-size' | 'max-tasks' | 'max-agents' | 'max-sessions' | 'session-records';

function readBound(text: string | undefined, flag: BoundFlag, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,7}$/.test(text) || Number(text) < min)
    cliError(`--${flag} must be a whole number from ${min} to 9999999, got ${text}`);
  return Number(text);
}

/**
 * Each origin as a browser sends it in `Origin` (scheme, host, port; http or https): anything else can never match a
 * request, so a typo (`http://a,b` for two origins) or `javascript:…` would silently allow nobody.
 */
function readCorsOrigins(origins: string[] | undefined): string[] | undefined {
  const bad = origins?.find((origin) => {
    const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
    return (
      parsed === undefined ||
      !['http:', 'https:'].includes(parsed.protocol) ||
      parsed.origin !== origin ||
      /[,\s]/.test(origin)
    );
  });
  if (bad !== undefined)
    cliError(
      `--cors-origin takes one origin as browsers send it (http(s)://host[:port], no path; repeat the flag for more), got "${bad}"`,
    );
  return origins;
}

function readAllowedHosts(allowedHosts: string[]): string[] {
  const badHost = allowedHosts.find((name) => name === '' || /[\s,/@]|^[^:]*:\d*$/.test(name));
  if (badHost !== undefined)
    cliError(
      `--allowed-host takes a host name without scheme, port or path (e.g. fake.internal; any port is accepted), got "${badHost}"`,
    );
  return allowedHosts;
}

/** What `--state` gives the core: its storage and, for PostgreSQL, the replica layer and hooks. */
type OpenedState = Pick<MockCoreOptions, 'dispatchLayer' | 'randomStart' | 'watchStoredChanges'> & { storage: Storage };

/**
 * Opens the state store `--state` names: its storage, and for PostgreSQL what the core needs besides it to answer as
 * one of several replicas. node:sqlite (or pg) is loaded only then: the in-memory fake starts without.
 */
async function openState(settings: ServeSettings, seedNumber: number): Promise<OpenedState | undefined> {
  const state = settings.state;
  if (state === undefined) return undefined;
  const identity = { seed: seedNumber, catalogueSize: settings.agents, maxTasks: settings.maxTasks };
  try {
    if (/^postgres(ql)?:/i.test(state)) {
      requirePeers('serve --state postgres://…', ['pg']);
      const { openPostgresState } = await import('../../mocks/storage/postgres/postgres-state.ts');
      return await openPostgresState(state, identity);
    }
    const { openSqliteStorage } = await import('../../mocks/storage/sqlite/sqlite-storage.ts');
    return { storage: openSqliteStorage(state, identity) };
  } catch (error) {
    return cliError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Starts the fake backend with `args` (the flags of `agent-registry-kit serve --help`) and runs until SIGINT or SIGTERM.
 * @example await main(['--port', '0']); // prints: agent-registry-kit: fake backend listening on http://127.0.0.1:<port>
 */
export async function main(args: string[]): Promise<void> {
  const [
    { createMockCore, DEFAULT_SEED },
    { startMockServer },
    { consoleLogger },
    { seedFromText },
    { MAX_CATALOGUE_SIZE },
    { DEFAULT_MAX_AGENTS },
  ] = await Promise.all([
    import('../../mocks/assembly/mock-core.ts'),
    import('../../mocks/adapters/node-http/http-server.ts'),
    import('../../mocks/domain/logger.ts'),
    import('../../mocks/domain/random.ts'),
    import('../../mocks/state/catalogue.ts'),
    import('../../mocks/state/store/store-types.ts'),
  ]);
  // Every line the fake prints may carry stored data (an agent id in a refusal, a database's error text): printed through
  // the one terminal-safe writer, so no escape sequence in it reaches the terminal raw.
  guardWrites(process.stdout);
  guardWrites(process.stderr);
  const values = parseCommandLine(flags, { usage, help: help(DEFAULT_SEED) }, args);
  // V8 doubles the young generation whenever many objects survive (a 100k catalogue, a deploy load) and never gives the
  // pages back, which grows RSS and the page faults per deploy for no more req/s (docs/performance.md, "Memory"). This
  // entry point (not the library) keeps the young generation at its initial size.
  setFlagsFromString('--semi-space-growth-factor=1');
  const env = process.env;
  const settings = readSettings(values, env, {
    defaultSeed: DEFAULT_SEED,
    maxCatalogueSize: MAX_CATALOGUE_SIZE,
    defaultMaxAgents: DEFAULT_MAX_AGENTS,
  });
  const state = await openState(settings, seedFromText(settings.seed));
  const core = createMockCore({
    seed: settings.seed,
    catalogueSize: settings.agents,
    failureRatio: settings.failureRatio,
    journalSize: settings.journalSize,
    maxTasks: settings.maxTasks,
    maxAgents: settings.maxAgents,
    sessions: settings.sessions,
    ...(settings.origins && { corsOrigins: settings.origins }),
    ...(env.MOCK_JWT_SECRET && { jwtSecret: env.MOCK_JWT_SECRET }),
    ...state,
  });
  if (settings.fromRecording !== undefined) {
    const { loadRecordedAgents } = await import('../recorded-state.ts');
    core.store.setStartingAgents(loadRecordedAgents(settings.fromRecording));
  }
  // The state is resumed (and a new database written once) before the port opens, so a full disk shows now, not later.
  await core
    .persist()
    .catch((error: unknown) =>
      cliError(`could not write the state database: ${error instanceof Error ? error.message : String(error)}`),
    );
  const running = await startMockServer({
    core,
    port: settings.port,
    host: settings.host,
    allowedHosts: settings.allowedHosts,
    ...(settings.controlToken !== undefined && { controlToken: settings.controlToken }),
    unsafeOpenControlPlane: settings.unsafeOpenControlPlane,
  }).catch((error: unknown) => cliError(error instanceof Error ? error.message : String(error)));
  consoleLogger.info(`fake backend listening on ${running.url}`);
  consoleLogger.info(
    `console: ${running.url}/__mock/ui/ (a bearer token for /v1: npx agent-registry-kit token${settings.controlToken === undefined ? '' : '; the page asks for the control token'})`,
  );
  stopOnSignals(async () => {
    await running.close();
    // The last counts of GET /__mock/coverage ride on a final batch. They are best-effort (every acknowledged
    // mutation is already on disk), so a refused write, e.g. on a full disk, is a warning, not a failed stop.
    await core.persist().catch((error: unknown) => {
      consoleLogger.warn(
        `the last coverage counts were not saved: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    await state?.storage.close();
  }, consoleLogger);
}

/** Runs `close` once on SIGINT, SIGTERM or the launcher's exit, then exits (1 when closing failed). */
function stopOnSignals(close: () => Promise<void>, logger: { error(message: string): void }): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error(
          `could not stop cleanly after ${signal}: ${error instanceof Error ? error.message : String(error)}`,
        );
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  stopWithLauncher(stop);
}

if (import.meta.main) await main(process.argv.slice(2));
