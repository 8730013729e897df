// Micro-benchmark of the request-body hot path: what readJsonBody costs per body, and what of it the I-JSON scan
// (RFC 7493: repeated names, lone surrogates) adds next to JSON.parse. Prints one line per body; figures are µs per body.
import { findIJsonViolation } from '../../mocks/core/request/i-json.ts';
import { readJsonBody } from '../../mocks/core/request/request-body.ts';
import { getAtPointer, openapiDocument } from '../../spec/index.ts';
import { numberFlag, parseCommandLine } from '../../scripts/command-line.ts';

/**
 * Runs the micro-benchmark and prints its figures.
 * @example await main(['--rounds', '5']);
 */
export async function main(args: string[]): Promise<void> {
  const usage = 'usage: node benchmarks/probes/body-parsing.ts [--rounds N]';
  const values = parseCommandLine({ rounds: { type: 'string', default: '5' } }, { usage }, args);
  const rounds = numberFlag('rounds', values.rounds, { integer: true, min: 1 }, usage);
  const bodies: [string, string, number][] = [
    [
      'deploy example',
      JSON.stringify(getAtPointer(openapiDocument, '/components/examples/DeployRequestTrading/value')),
      100_000,
    ],
    [
      'execute with parameters',
      JSON.stringify({ task: 'Summarise', priority: 'high', parameters: { a: [1, 2], b: { c: 'd\u00e9' } } }),
      100_000,
    ],
    ['1 MB string', JSON.stringify({ task: 'x', parameters: { blob: 'y'.repeat(1_000_000) } }), 100],
  ];
  for (const [name, text, iterations] of bodies) {
    const request = {
      method: 'POST',
      path: '/v1/agents/deploy',
      query: '',
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(text),
    };
    // The best of interleaved rounds: the machine is shared, the minimum is the cost without interference.
    let body = Number.POSITIVE_INFINITY;
    let scan = Number.POSITIVE_INFINITY;
    let parse = Number.POSITIVE_INFINITY;
    for (let round = 0; round < rounds; round += 1) {
      let started = performance.now();
      for (let index = 0; index < iterations; index += 1)
        if (!readJsonBody(request).ok) throw new Error(`${name} refused`);
      body = Math.min(body, ((performance.now() - started) * 1000) / iterations);
      started = performance.now();
      for (let index = 0; index < iterations; index += 1) findIJsonViolation(text);
      scan = Math.min(scan, ((performance.now() - started) * 1000) / iterations);
      started = performance.now();
      for (let index = 0; index < iterations; index += 1) JSON.parse(text);
      parse = Math.min(parse, ((performance.now() - started) * 1000) / iterations);
    }
    process.stdout.write(
      `${name} (${text.length} chars): readJsonBody ${body.toFixed(2)} µs, of which I-JSON scan ${scan.toFixed(2)} µs (JSON.parse ${parse.toFixed(2)} µs)\n`,
    );
  }
}

if (import.meta.main) await main(process.argv.slice(2));
