// Keeps the bearer token (and anything derived from it) out of every dump, report and message the suite produces.

/** A function that replaces every secret in a text with a placeholder. */
export type Redact = (text: string) => string;

/**
 * Builds the redactor for a token: the token itself, each of its JWT segments and any derived secrets are replaced.
 * @example createRedactor('aaa.bbb.ccc')('got aaa.bbb.ccc') // 'got <redacted>'
 */
export function createRedactor(token: string, derived: readonly string[] = []): Redact {
  const secrets = [token, ...derived, ...token.split('.').filter((segment) => segment.length >= 8)]
    .filter((secret) => secret.length > 0)
    // Longest first, so a segment never leaves part of the whole token behind.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const secret of secrets) result = result.replaceAll(secret, '<redacted>');
    return result;
  };
}
