// `agent-registry-kit token` (and `npm run token`): prints a bearer token the fake backend accepts (HS256, development
// secret), and nothing else, on stdout.
import { DEFAULT_JWT_SECRET, MAX_TOKEN_LIFETIME_SECONDS, mintToken } from '../../mocks/core/request/auth.ts';
import { creatorProblem } from '../../mocks/state/agent-identity.ts';
import { cliError } from '../cli-error.ts';
import { parseCommandLine } from '../command-line.ts';

const usage = 'usage: agent-registry-kit token [--sub <name>] [--ttl <seconds>] [--expired] [--secret <text>]';

/**
 * Prints one token for the flags in `args`.
 * @example await main(['--sub', 'alice', '--ttl', '600']);
 */
export async function main(args: string[]): Promise<void> {
  const values = parseCommandLine(
    { sub: { type: 'string' }, ttl: { type: 'string' }, expired: { type: 'boolean' }, secret: { type: 'string' } },
    {
      usage,
      help: `${usage}
  --sub <name>     the caller, becomes creator of deployed agents (default dev-user)
  --ttl <seconds>  lifetime (default 3600, at most ${MAX_TOKEN_LIFETIME_SECONDS}: the fake refuses longer-lived tokens)
  --expired        a token that expired a minute ago, to see a 401
  --secret <text>  signing secret (default MOCK_JWT_SECRET, else ${DEFAULT_JWT_SECRET})`,
    },
    args,
  );
  if (
    values.ttl !== undefined &&
    (!/^[1-9]\d{0,9}$/.test(values.ttl) || Number(values.ttl) > MAX_TOKEN_LIFETIME_SECONDS)
  )
    cliError(
      `--ttl must be a whole number of seconds from 1 to ${MAX_TOKEN_LIFETIME_SECONDS} (7 days, the longest lifetime the fake accepts), got ${values.ttl}`,
    );
  // The fake refuses a token whose sub it could not keep as a creator: the same check here, so no such token is minted.
  const subProblem = values.sub === undefined ? undefined : creatorProblem(values.sub);
  if (subProblem !== undefined) cliError(`--sub ${subProblem}; the fake would refuse the token`);
  const secret = values.secret ?? process.env.MOCK_JWT_SECRET ?? DEFAULT_JWT_SECRET;
  if (secret === '') cliError('--secret (or MOCK_JWT_SECRET) must not be empty: HS256 cannot sign with an empty key');
  const token = await mintToken({
    ...(values.sub !== undefined && { sub: values.sub }),
    ...(values.ttl !== undefined && { ttlSeconds: Number(values.ttl) }),
    expired: values.expired ?? false,
    secret,
  });
  process.stdout.write(`${token}\n`);
}

if (import.meta.main) await main(process.argv.slice(2));
