// `npm run token`: prints a bearer token the fake backend accepts (HS256, development secret), and nothing else, on stdout.
import { parseArgs } from 'node:util';
import { DEFAULT_JWT_SECRET, mintToken } from '../mocks/auth.ts';
import { cliError } from './cli-error.ts';

const usage = 'usage: npm run token [-- --sub <name>] [--ttl <seconds>] [--expired] [--secret <text>]';
let values: { sub?: string; ttl?: string; expired?: boolean; secret?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: { sub: { type: 'string' }, ttl: { type: 'string' }, expired: { type: 'boolean' }, secret: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  cliError(`${(error instanceof Error ? error.message : String(error)).replaceAll("\n", " ")}; ${usage}`);
}
if (values.help) {
  console.log(`${usage}
  --sub <name>     the caller, becomes creator of deployed agents (default dev-user)
  --ttl <seconds>  lifetime (default 3600)
  --expired        a token that expired a minute ago, to see a 401
  --secret <text>  signing secret (default MOCK_JWT_SECRET, else ${DEFAULT_JWT_SECRET})`);
  process.exit(0);
}
if (values.ttl !== undefined && !/^[1-9]\d{0,9}$/.test(values.ttl)) cliError(`--ttl must be a positive whole number of seconds, got ${values.ttl}`);
if (values.sub === '') cliError('--sub must not be empty');
const token = await mintToken({
  ...(values.sub !== undefined && { sub: values.sub }),
  ...(values.ttl !== undefined && { ttlSeconds: Number(values.ttl) }),
  expired: values.expired ?? false,
  secret: values.secret ?? process.env.MOCK_JWT_SECRET ?? DEFAULT_JWT_SECRET,
});
process.stdout.write(`${token}\n`);
