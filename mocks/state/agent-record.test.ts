import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../spec/index.ts';
import { agentJson, agentRecord, agentView } from './agent-record.ts';
import { createCatalogue } from './catalogue.ts';

const catalogue = createCatalogue(42).map((entry) => entry.agent);
// Any UTF-16 code unit, lone surrogates and control characters included (fast-check's 'binary' unit is far slower).
const codeUnit = fc.nat(0xffff).map((code) => String.fromCharCode(code));

/** An agent from the catalogue with the given texts and figures put in. */
function withFields(texts: string[], figures: number[]): Agent {
  const base = structuredClone(catalogue[0] as Agent);
  const [name = 'n', description = '', creator = 'c', capability = 'x'] = texts;
  const [price = 0, marketCap = 0, successRate = 0, volume = 0, change = 0] = figures;
  return {
    ...base,
    name,
    description,
    creator,
    capabilities: [capability, ...texts.slice(4)],
    tokenomics: { ...base.tokenomics, price, marketCap },
    performance: { ...base.performance, successRate },
    statistics: { ...base.statistics, volume24h: volume, priceChange24h: change },
  };
}

describe('the flat agent record', () => {
  it('gives back the agent it was made from, field for field and in the schema order', () => {
    for (const agent of catalogue) {
      const view = agentView(agentRecord(agent, 0, undefined));
      expect(view).toEqual(agent);
      expect(JSON.stringify(view)).toBe(JSON.stringify(agent));
    }
  });

  it('writes the same JSON text as JSON.stringify of its view, whatever the texts and figures', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: codeUnit, maxLength: 12 }), { minLength: 4, maxLength: 6 }),
        fc.array(fc.double(), { minLength: 5, maxLength: 5 }),
        (texts, figures) => {
          const record = agentRecord(withFields(texts, figures), 3, 7);
          expect(agentJson(record)).toBe(JSON.stringify(agentView(record)));
        },
      ),
    );
  });

  it('writes escapes, lone surrogates, -0 and exponents as JSON.stringify does', () => {
    const agent = withFields(['q"\\\n\u2028', '\ud800 é', '</script>', '\u0000'], [-0, 1e21, 1e-7, 0.1 + 0.2, -5.5]);
    const record = agentRecord(agent, 0, undefined);
    expect(agentJson(record)).toBe(JSON.stringify(agent));
  });

  it('hands out views that change nothing stored', () => {
    const record = agentRecord(structuredClone(catalogue[1] as Agent), 0, undefined);
    const view = agentView(record);
    view.capabilities.push('extra');
    view.tokenomics.price = 99;
    expect(agentView(record)).toEqual(catalogue[1]);
  });
});
