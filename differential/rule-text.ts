// How a divergence names its rule: the spec pointer, seed or assumption, and the readable text found at that pointer.
import { getAtPointer, isJsonObject, openapiDocument, type Violation } from '../spec/index.ts';
import type { SpecRule } from './diff-script.ts';

/** A rule with its readable text, as reports show it. */
export type RuleWithText = SpecRule & { text: string };

/**
 * The readable text of a rule: the description (or x-assumption) of the node at its pointer, or of its nearest ancestor.
 * @example ruleText('/components/responses/AgentNotFound') // 'No agent has this agentId.'
 */
function ruleText(specPointer: string, origin: SpecRule['origin'] = 'seed'): string {
  const tokens = specPointer.split('/');
  for (let length = tokens.length; length > 1; length -= 1) {
    const node = getAtPointer(openapiDocument, tokens.slice(0, length).join('/'));
    if (!isJsonObject(node)) continue;
    // For a decision of the spec, the decision itself reads better than the node's description.
    const assumption = origin === 'assumption' ? node['x-assumption'] : undefined;
    const text =
      typeof assumption === 'string'
        ? assumption
        : typeof node.description === 'string'
          ? node.description
          : node['x-assumption'];
    if (typeof text === 'string') return text.trim().split('\n')[0] ?? '';
  }
  if (specPointer === '/security') return 'Every operation requires a JWT bearer token.';
  return '';
}

/**
 * A rule with its text attached.
 * @example withText({ specPointer: '/components/responses/AgentNotFound', origin: 'seed' })
 */
export function withText(rule: SpecRule): RuleWithText {
  return { ...rule, text: ruleText(rule.specPointer, rule.origin) };
}

/**
 * The rule a response checker's violation names.
 * @example fromViolation(check.violations[0])
 */
export function fromViolation(violation: Violation): RuleWithText {
  return withText({ specPointer: violation.specPointer, origin: violation.origin });
}
