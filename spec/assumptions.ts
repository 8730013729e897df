// Lists every decision the spec made where the service description is silent: the reviewer's checklist.
import { assumptions as generatedAssumptions } from './assumptions.generated.ts';
import { isJsonObject, toPointer, type JsonObject, type JsonValue } from './json-pointer.ts';

/** One decision of the spec. */
export interface Assumption {
  /** JSON Pointer of the node in spec/openapi.yaml. */
  pointer: string;
  /** What was decided, read from the node itself (the assumed keywords and their values, or the node's description). */
  decision: string;
  /** Why: the one-line reason in `x-assumption`. */
  reason: string;
}

function oneLine(text: string): string {
  const paragraph = text.trim().split(/\n\s*\n/)[0] ?? '';
  return paragraph.replace(/\s+/g, ' ');
}

function decisionOf(node: JsonObject): string {
  const keywords = node['x-assumed-keywords'];
  if (Array.isArray(keywords)) {
    return keywords
      .map((keyword) => {
        const value =
          isJsonObject(node.items) && !(String(keyword) in node) ? node.items[String(keyword)] : node[String(keyword)];
        if (keyword === 'description') return oneLine(String(value));
        // Members the service description states are not part of the decision; say which they are.
        const seed = node[`x-seed-${String(keyword)}`];
        const fromSeed = Array.isArray(seed) ? ` (from the seed: ${seed.join(', ')})` : '';
        return `${String(keyword)}: ${JSON.stringify(value)}${fromSeed}`;
      })
      .join('; ');
  }
  if (typeof node.description === 'string') return oneLine(node.description);
  if (typeof node.summary === 'string') return node.summary;
  return '(see the node)';
}

function collect(value: JsonValue, tokens: string[], into: Assumption[]): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collect(item, [...tokens, String(index)], into);
    return;
  }
  if (!isJsonObject(value)) return;
  const reason = value['x-assumption'];
  if (typeof reason === 'string') into.push({ pointer: toPointer(tokens), decision: decisionOf(value), reason });
  for (const [key, child] of Object.entries(value)) collect(child, [...tokens, key], into);
}

/**
 * Every `x-assumption` of a document, in document order: tools/generate.ts writes spec/openapi.yaml's into
 * assumptions.generated.ts, so no process walks the document for them when it starts.
 * @example readAssumptions(openapiDocument).length
 */
export function readAssumptions(document: JsonObject): Assumption[] {
  const result: Assumption[] = [];
  collect(document, [], result);
  return result;
}

/**
 * Every `x-assumption` in spec/openapi.yaml, in document order.
 * @example assumptions.find((a) => a.pointer.endsWith('/revenueShare'))?.reason
 */
export const assumptions: readonly Assumption[] = generatedAssumptions;
