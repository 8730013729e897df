// The counts docs/contract-tests.md states about the suite (checks per family and operation, writes of a default run), rendered
// from the plan itself so the prose cannot drift: `npm run generate` writes them into the page (tools/generated-docs.ts).
import { operations } from '../../spec/index.ts';
import { generatedProperties, namedChecks, planRun } from '../check-plan.ts';
import type { CheckName } from '../../verifier-client/check-record.ts';
import { defaultRunOptions } from '../run-options.ts';

const families: CheckName[] = ['conformance', 'auth', 'request-validation', 'behaviour', 'reliability', 'generated'];

/**
 * The table of checks in docs/contract-tests.md, as markdown.
 * @example console.log(renderCheckCounts());
 */
export function renderCheckCounts(): string {
  const ids = [...operations.keys()];
  const count = (family: CheckName, operationId?: string): number =>
    family === 'generated'
      ? generatedProperties.filter((p) => operationId === undefined || p.operationId === operationId).length
      : namedChecks.filter((c) => c.check === family && (operationId === undefined || c.operationId === operationId))
          .length;
  const rows = families.map(
    (family) => `| \`${family}\` | ${ids.map((id) => count(family, id)).join(' | ')} | ${count(family)} |`,
  );
  const totals = ids.map((id) => families.reduce((sum, family) => sum + count(family, id), 0));
  const plan = planRun({ maxWrites: undefined, readOnly: false, runs: defaultRunOptions.runs });
  return [
    `| check | ${ids.join(' | ')} | all |`,
    `|---|${ids.map(() => '---:|').join('')}---:|`,
    ...rows,
    `| **all** | ${totals.join(' | ')} | **${totals.reduce((a, b) => a + b, 0)}** |`,
    '',
    `With the defaults (\`--runs ${defaultRunOptions.runs}\`) a run sends at most ${plan.totals.posts} POSTs: up to ` +
      `${plan.totals.deploys} deploys and ${plan.totals.executes} task submissions a correct server accepts, ` +
      `${plan.shrinkBudget} kept for shrinking, the rest requests a correct server rejects.`,
  ].join('\n');
}
