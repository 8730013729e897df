// Pact's own verifier (@pact-foundation/pact) on a pact file against a running fake, as docs/testing-your-app.md
// shows it: a state handler per provider state the pact names, each sent to the fake's state-change endpoint.
// `node verify-pact.mjs <base-url> <pact>...`: every pact in one verifier run (one start of Pact's core); exits 1 on
// any mismatch in any of them.
import { readFile } from 'node:fs/promises';
import { Verifier } from '@pact-foundation/pact';
import { mintToken } from 'agent-registry-kit/server';

process.env.PACT_DO_NOT_TRACK = 'true';
const [base, ...pactFiles] = process.argv.slice(2);
const pacts = await Promise.all(pactFiles.map(async (file) => JSON.parse(await readFile(file, 'utf8'))));
const change = (state, action) => async (params) => {
  const response = await fetch(`${base}/__mock/provider-states`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state, params: params ?? {}, action }),
  });
  if (!response.ok) throw new Error(`${action} of "${state}" answered ${response.status}: ${await response.text()}`);
};
const states = new Set(
  pacts
    .flatMap((pact) => pact.interactions)
    .flatMap((interaction) => interaction.providerStates ?? [])
    .map((s) => s.name),
);
// The provider's side brings a valid token: the pact holds a stand-in only.
const token = await mintToken({ sub: 'provider-verification' });
await new Verifier({
  providerBaseUrl: base,
  pactUrls: pactFiles,
  stateHandlers: Object.fromEntries(
    [...states].map((name) => [name, { setup: change(name, 'setup'), teardown: change(name, 'teardown') }]),
  ),
  customProviderHeaders: { Authorization: `Bearer ${token}` },
  logLevel: 'error',
}).verifyProvider();
for (const file of pactFiles) console.log(`verified ${file}`);
