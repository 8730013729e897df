// A pact may hold a real credential (an Authorization header recorded as it was sent): every output of `pact verify`
// goes through the kit's one redactor, built from each credential the pact states, so none is ever printed or written.
import { createRedactor, type Redact } from '../verifier-client/redaction.ts';
import type { Pact } from './pact-file.ts';

/** Headers whose values are credentials. */
const credentialHeaders = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'];

/**
 * The redactor of a pact: each credential header value of its requests, whole and without its scheme, in every encoding
 * verifier-client/redaction.ts knows.
 * @example pactRedactor(pact)(text) // text with every token the pact holds replaced by <redacted>
 */
export function pactRedactor(pact: Pact): Redact {
  const secrets = new Set<string>();
  for (const interaction of pact.interactions)
    for (const name of credentialHeaders) {
      const value = interaction.request?.headers[name]?.trim();
      if (value === undefined || value === '') continue;
      secrets.add(value);
      const credential = value.replace(/^[A-Za-z][\w-]*\s+/, '');
      if (credential !== '') secrets.add(credential);
    }
  // One redactor for every credential, built once: its cost per text does not grow with their number.
  return createRedactor([...secrets].filter((secret) => secret.length >= 8));
}
