// Tells whether a rule of the document comes from the service description (seed) or from a decision of the spec (assumption).
import { openapiDocument } from './openapi-document.generated.ts';
import { getAtPointer, isJsonObject, parsePointer, toPointer, type JsonObject } from './json-pointer.ts';

export type RuleOrigin = 'seed' | 'assumption';

/**
 * The origin of the keyword at `keywordPointer` (e.g. `/components/schemas/Tokenomics/properties/price/minimum`).
 * A keyword is an assumption when its node has `x-assumption` and either lists it in `x-assumed-keywords` or lists
 * nothing, or when an ancestor has an `x-assumption` without a keyword list (the whole subtree is then a decision).
 * An assumed `type: integer` only counts when the data was a number (a string breaks the seed too).
 * A keyword can be partly seed: `member` names the statement inside it (for `required`, the missing property), and
 * `x-seed-required` lists the members of an assumed `required` that the service description states itself.
 * `document` is spec/openapi.yaml unless another version of it is given.
 * @example ruleOrigin('/components/schemas/AgentStatus/enum') // 'seed'
 * @example ruleOrigin('/components/schemas/Agent/required', undefined, 'statistics') // 'seed' (the seed lists it)
 */
export function ruleOrigin(
  keywordPointer: string,
  data?: unknown,
  member?: string,
  document: JsonObject = openapiDocument,
): RuleOrigin {
  const tokens = parsePointer(keywordPointer);
  const keyword = tokens.at(-1) ?? '';
  const nodePointer = toPointer(tokens.slice(0, -1));
  const node = getAtPointer(document, nodePointer);
  if (isJsonObject(node) && typeof node['x-assumption'] === 'string') {
    const listed = node['x-assumed-keywords'];
    if (!Array.isArray(listed)) return 'assumption';
    if (listed.includes(keyword)) {
      if (keyword === 'type' && node.type === 'integer' && typeof data !== 'number') return 'seed';
      const seedMembers = node[`x-seed-${keyword}`];
      if (member !== undefined && Array.isArray(seedMembers) && seedMembers.includes(member)) return 'seed';
      return 'assumption';
    }
  }
  for (let length = tokens.length - 2; length > 0; length -= 1) {
    const ancestor = getAtPointer(document, toPointer(tokens.slice(0, length)));
    if (
      isJsonObject(ancestor) &&
      typeof ancestor['x-assumption'] === 'string' &&
      !Array.isArray(ancestor['x-assumed-keywords'])
    ) {
      return 'assumption';
    }
  }
  return 'seed';
}
