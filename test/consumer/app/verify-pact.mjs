// Pact's own verifier (@pact-foundation/pact) on a pact file against a running fake, the fake's state-change endpoint
// setting up each interaction's provider state: `node verify-pact.mjs <pact> <base-url>`; exits 1 on any mismatch.
import { Verifier } from '@pact-foundation/pact';
import { mintToken } from 'agent-registry-kit/server';

process.env.PACT_DO_NOT_TRACK = 'true';
const [pact, base] = process.argv.slice(2);
// The provider's side brings a valid token: the pact holds a stand-in only.
const token = await mintToken({ sub: 'provider-verification' });
await new Verifier({
  providerBaseUrl: base,
  pactUrls: [pact],
  providerStatesSetupUrl: `${base}/__mock/provider-states`,
  customProviderHeaders: { Authorization: `Bearer ${token}` },
  logLevel: 'error',
}).verifyProvider();
console.log(`verified ${pact}`);
