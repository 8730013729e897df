// The steady-memory section: the fake's RSS over a long mixed load, which must stop climbing.
import type autocannon from 'autocannon';
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import { fillPath } from '../verifier-client/requests/path-parameters.ts';
import { memoryOf } from '../test/support/spawned-server.ts';
import { fmt, load, log, mb, pathValuesOn, requestFor } from './load.ts';
import type { Options } from './options.ts';
import { headers, startAndProbe } from './servers.ts';

/**
 * Mixed valid and invalid traffic for `--steady` seconds, sampling RSS each second: memory must plateau.
 * @example const { rssLastThirdGrowthMb } = await steady(options);
 */
export async function steady(options: Options) {
  const probe = await startAndProbe('fake', options);
  const auth = headers();
  // Mixed traffic that must not grow memory: retrievals, submissions made on the agent (whose history is bounded), and
  // errors; the operations come from the spec's links (a deploy creates, a retrieve reads back, a task is submitted).
  const { creator, readBack, parameter, submissions } = primaryCreation();
  const read = requestFor(readBack, await pathValuesOn(probe, readBack));
  const writes = await Promise.all(
    submissions.map(async (operationId) => requestFor(operationId, await pathValuesOn(probe, operationId))),
  );
  const requests: autocannon.Request[] = [
    { method: 'GET', path: read.path, headers: auth },
    ...writes.map(({ method, path, body }) => ({
      method: method as autocannon.Request['method'],
      path,
      headers: auth,
      body,
    })),
    { method: 'GET', path: fillPath(readBack, { [parameter]: 'doesNotExist' }), headers: auth },
    { method: 'POST', path: fillPath(creator, {}), headers: auth, body: '{"' },
    { method: 'GET', path: read.path, headers: { authorization: 'Bearer not-a-jwt' } },
  ];
  const samples: { second: number; rssMb: number }[] = [];
  const began = performance.now();
  const timer = setInterval(
    () =>
      samples.push({
        second: Math.round((performance.now() - began) / 100) / 10,
        rssMb: mb(memoryOf(probe.server.pid).rss),
      }),
    1000,
  );
  let result: autocannon.Result;
  try {
    result = await load(probe.server.baseUrl, { requests, connections: 50, duration: options.steady });
    clearInterval(timer);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    samples.push({
      second: Math.round((performance.now() - began) / 100) / 10,
      rssMb: mb(memoryOf(probe.server.pid).rss),
    });
  } finally {
    clearInterval(timer);
    await probe.server.stop();
  }
  const during = samples.slice(0, -1);
  const half = Math.floor(during.length / 2);
  // V8 grows its heap in steps early on; what matters is whether RSS has stopped climbing by the last third of the run.
  const lastThird = during.slice(Math.floor((2 * during.length) / 3));
  const summary = {
    seconds: options.steady,
    requests: result.requests.total,
    unexpected5xx: result['5xx'],
    errors: result.errors,
    rssStartMb: samples[0]?.rssMb ?? Number.NaN,
    rssFirstHalfPeakMb: Math.max(...during.slice(0, half).map((s) => s.rssMb), 0),
    rssSecondHalfPeakMb: Math.max(...during.slice(half).map((s) => s.rssMb), 0),
    rssLastThirdGrowthMb: Math.round(((lastThird.at(-1)?.rssMb ?? 0) - (lastThird[0]?.rssMb ?? 0)) * 10) / 10,
    lastThirdSeconds: Math.round((lastThird.at(-1)?.second ?? 0) - (lastThird[0]?.second ?? 0)),
    rssAfterIdleMb: samples.at(-1)?.rssMb ?? Number.NaN,
    samples,
  };
  log(
    `steady ${options.steady} s: ${fmt(result.requests.total)} requests, RSS ${summary.rssStartMb} → peak ${summary.rssFirstHalfPeakMb} (1st half) / ${summary.rssSecondHalfPeakMb} (2nd half), ${summary.rssLastThirdGrowthMb >= 0 ? '+' : ''}${summary.rssLastThirdGrowthMb} MB over the last ${summary.lastThirdSeconds} s → ${summary.rssAfterIdleMb} MB after 3 s idle`,
  );
  return summary;
}
