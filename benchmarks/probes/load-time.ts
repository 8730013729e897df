// What the kit costs a test file that starts it: in an app with the packed kit and msw 3 installed, one process per run
// doing `import('agent-registry-kit/node')` + `setupMockServer()` + listen + a first deploy through fetch, against msw
// alone with one static handler + one fetch; the two alternate, each run in a fresh process. Prints the medians (wall
// time from before the import to the answer read, and the process's CPU time including Node's own start) and their ratio.
// Runs alone: `node benchmarks/probes/load-time.ts [--runs 7] [--kit DIR]` (DIR: another checkout of the kit to pack).
import { load, packedApp } from './packed-app.ts';

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg === -1 ? 7 : Number(process.argv[runsArg + 1]);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of runs, at least 1');
const kitArg = process.argv.indexOf('--kit');
const kitRoot = kitArg === -1 ? undefined : process.argv[kitArg + 1];

const deploy = { name: 'Probe Bot', category: 'defi', model: 'gpt-4', initialSupply: 1000 };
// Wall time from before the import; CPU time of the process, with Node's own start and without it.
const report = `const cpu = process.cpuUsage();
console.log(JSON.stringify({ status: answer.status, ms: performance.now() - started, cpu: (cpu.user + cpu.system) / 1000, scriptCpu: (cpu.user + cpu.system - startCpu.user - startCpu.system) / 1000 }));`;

const kit = `const started = performance.now();
const startCpu = process.cpuUsage();
const { setupMockServer, mintToken } = await import('agent-registry-kit/node');
const server = setupMockServer({ baseUrl: 'http://api.test' });
server.listen({ onUnhandledRequest: 'error' });
const token = await mintToken({ sub: 'probe' });
const answer = await fetch('http://api.test/v1/agents/deploy', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
  body: ${JSON.stringify(JSON.stringify(deploy))},
});
await answer.text();
${report}
server.close();
`;

const msw = `const started = performance.now();
const startCpu = process.cpuUsage();
const { setupServer } = await import('msw/node');
const { http, HttpResponse } = await import('msw');
const server = setupServer(
  http.post('http://api.test/v1/agents/deploy', () => HttpResponse.json({ agentId: 'agt_probe' }, { status: 201 })),
);
server.listen({ onUnhandledRequest: 'error' });
const answer = await fetch('http://api.test/v1/agents/deploy', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: ${JSON.stringify(JSON.stringify(deploy))},
});
await answer.text();
${report}
server.close();
`;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const loadBefore = load();
const app = await packedApp(['msw@^3'], kitRoot);
try {
  await app.write('kit.mjs', kit);
  await app.write('msw.mjs', msw);
  const samples = {
    kit: { ms: [] as number[], cpu: [] as number[], scriptCpu: [] as number[] },
    msw: { ms: [] as number[], cpu: [] as number[], scriptCpu: [] as number[] },
  };
  for (let run = 0; run < runs; run += 1) {
    for (const which of run % 2 === 0 ? (['kit', 'msw'] as const) : (['msw', 'kit'] as const)) {
      const result = JSON.parse(await app.node(`${which}.mjs`)) as {
        status: number;
        ms: number;
        cpu: number;
        scriptCpu: number;
      };
      if (result.status !== 201) throw new Error(`${which}.mjs: the deploy answered ${result.status}`);
      samples[which].ms.push(result.ms);
      samples[which].cpu.push(result.cpu);
      samples[which].scriptCpu.push(result.scriptCpu);
    }
  }
  const [kitMs, mswMs] = [median(samples.kit.ms), median(samples.msw.ms)];
  const [kitCpu, mswCpu] = [median(samples.kit.cpu), median(samples.msw.cpu)];
  const [kitScript, mswScript] = [median(samples.kit.scriptCpu), median(samples.msw.scriptCpu)];
  const list = (values: number[]): string => values.map((value) => value.toFixed(0)).join(' ');
  console.log(`kit: import + setupMockServer + listen + first deploy, ms: ${list(samples.kit.ms)}`);
  console.log(`msw: import + setupServer (one static handler) + listen + one fetch, ms: ${list(samples.msw.ms)}`);
  console.log(
    `median of ${runs}: kit ${kitMs.toFixed(0)} ms, msw ${mswMs.toFixed(0)} ms: ${(kitMs / mswMs).toFixed(2)}x ` +
      `(CPU: ${kitScript.toFixed(0)} and ${mswScript.toFixed(0)} ms, ${(kitScript / mswScript).toFixed(2)}x; ` +
      `with Node's own start ${kitCpu.toFixed(0)} and ${mswCpu.toFixed(0)} ms, ${(kitCpu / mswCpu).toFixed(2)}x); ` +
      `load ${loadBefore} -> ${load()}`,
  );
} finally {
  await app.remove();
}
