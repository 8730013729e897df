// The cold-start section: spawn → first 201 of the fake, with and without node's compile cache.
import { fmt, log, median } from './load.ts';
import type { Options } from './options.ts';
import { startAndProbe } from './servers.ts';

/**
 * The fake's cold start, spawn → first 201, with node's compile cache as a second start finds it and without it (as the
 * very first start on a machine, or with NODE_DISABLE_COMPILE_CACHE=1).
 * @example const { withCacheMs } = await coldStarts(options);
 */
export async function coldStarts(options: Options) {
  const samples = options.quick ? 2 : 5;
  const result: Record<'withCache' | 'withoutCache', number[]> = { withCache: [], withoutCache: [] };
  for (let index = 0; index < samples; index += 1) {
    for (const mode of ['withCache', 'withoutCache'] as const) {
      const env = mode === 'withCache' ? process.env : { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
      const probe = await startAndProbe('fake', options, [], env);
      result[mode].push(Math.round(probe.coldStartMs));
      await probe.server.stop();
    }
  }
  const summary = {
    withCacheMs: median(result.withCache),
    withoutCacheMs: median(result.withoutCache),
    samples: result,
  };
  log(
    `cold start (median of ${samples}): ${fmt(summary.withCacheMs)} ms with the compile cache, ${fmt(summary.withoutCacheMs)} ms without`,
  );
  return summary;
}
