// `agent-registry-kit docs` (and `npm run docs`): the API reference page (Redoc, via @redocly/cli) with the spec's
// assumptions as a section of it, written to build/docs/index.html with Redoc's script inlined, so the page works opened
// from disk with no network.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assumptions, openapiDocument, type Assumption } from '../../spec/index.ts';
import { cliError } from '../cli-error.ts';
import { parseCommandLine } from '../command-line.ts';
import { requirePeers } from '../optional-peers.ts';

/** The package's root (a clone's holds redocly.yaml), resolved by its own name: not from this module, which is a chunk in dist/. */
const root = dirname(fileURLToPath(import.meta.resolve('agent-registry-kit/package.json')));

/** The credit's wording as an image, so the page keeps its attribution without asking the network for a logo. */
const redoclyLogo = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#0044D4">Redocly</text></svg>',
)}`;

/** Markdown inline text cannot hold a line break. */
function inline(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The assumptions as a Markdown section, which Redoc renders as its own entry in the side menu.
 * A list rather than a table: Redoc's middle column is too narrow for four columns with long pointers.
 * @example assumptionsMarkdown(assumptions).startsWith('## Assumptions')
 */
export function assumptionsMarkdown(list: readonly Assumption[]): string {
  const items = list.map(
    (a, index) =>
      `${index + 1}. \`${a.pointer}\`  \n   **Decided:** ${inline(a.decision)}  \n   **Why:** ${inline(a.reason)}`,
  );
  return [
    '## Assumptions',
    '',
    `Where the service description says "not shown", the spec decides. These ${list.length} decisions are marked`,
    'with `x-assumption` in `spec/openapi.yaml`: where (a JSON Pointer into the document), what was decided, and why',
    '(what the description left open). `npx agent-registry-kit assumptions` prints the same list.',
    '',
    ...items,
  ].join('\n');
}

/**
 * A guide of the published package: `docs/<page>.md` ships in the tarball beside the README (the page is read offline
 * too, so the text names the file as well as linking the README's list of guides).
 */
function guide(page: string, title: string): string {
  return `[${title}](${readmeSection('documentation')}) (\`docs/${page}.md\` in the package)`;
}

/** The README section of the published package. */
function readmeSection(anchor: string): string {
  return `https://www.npmjs.com/package/agent-registry-kit#${anchor}`;
}

/** How to measure what was exercised of this contract, from both sides (testing-your-app and contract-tests guides). */
const coverageMarkdown = [
  '## Coverage of this contract',
  '',
  "From the frontend's side: the fake backend counts every documented status, named example, `Prefer` code, scenario",
  'branch and problem kind it answers (`GET /__mock/coverage`); `npm run coverage -- --base-url http://127.0.0.1:4010',
  "--min 80 --html coverage.html` prints what the frontend's tests exercised and what they never did. Worked example:",
  `${guide('testing-your-app', 'Testing your app')}.`,
  '',
  "From the server's side: `npm run contract` lists the documented (operation, status) pairs the live server was seen",
  'to answer, those it was never provoked into, and undocumented ones, in its summary, `--json` and JUnit properties.',
  `Worked example: ${guide('contract-tests', 'Contract tests')}.`,
  '',
  '## Checking the fake and the spec against reality',
  '',
  '`npx agent-registry-kit diff --fake <url> --real <url>` runs one seeded script of deploys, retrieves, tasks and',
  'documented errors against the fake and a real server, and shows each exchange where they diverge side by side with',
  'the spec rule involved (seed or assumption).',
  '',
  '`npx agent-registry-kit spec-change --base <file or git ref>` classifies every change to this document as breaking',
  "for clients, for servers, or compatible, and replays the base version's examples, a running fake's journal and a",
  'contract report through the new version to list the recorded calls it would reject.',
  '',
  `Worked examples of both: ${guide('spec-change-and-diff', 'Spec change and diff')}.`,
  '',
  '## Guides',
  '',
  `Using the kit from your project, configuration and the control plane: the [README](${readmeSection('use-it-in-your-project')});`,
  `every other subject has its own guide, listed under [Documentation](${readmeSection('documentation')}).`,
].join('\n');

/** A copy of the document whose description ends with the assumptions section; the spec itself is not touched. */
function documentWithAssumptions(): unknown {
  const document = structuredClone(openapiDocument) as { info: { description?: string } };
  document.info.description = `${document.info.description ?? ''}\n\n${assumptionsMarkdown(assumptions)}\n\n${coverageMarkdown}\n`;
  return document;
}

/**
 * Writes the reference page into `--out DIR` (default build/docs under the current directory) and prints its path.
 * @example main(['--out', 'site/api']); // prints /…/site/api/index.html
 */
export function main(args: string[]): void {
  const { out } = parseCommandLine(
    { out: { type: 'string' } },
    {
      usage: 'usage: agent-registry-kit docs [--out DIR]',
      help: 'usage: agent-registry-kit docs [--out DIR]\n  --out DIR  where index.html and openapi.json go (default build/docs)',
    },
    args,
  );
  // Redoc is not a dependency of the package: tens of megabytes in every install for a page few users build. Its CLI
  // runs as a program of its own, so the app's copy counts as well as one beside the kit.
  const [redoclyFolder = ''] = requirePeers('docs', ['@redocly/cli'], [process.cwd()]);
  const redocly = join(redoclyFolder, 'bin', 'cli.js');
  const outDir = resolve(out ?? join('build', 'docs'));

  const input = join(outDir, 'openapi.json');
  const page = join(outDir, 'index.html');
  try {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(input, `${JSON.stringify(documentWithAssumptions(), null, 2)}\n`);
  } catch (error) {
    // A path that is a file (/dev/null), read-only or on a full disk is a mistake in what was given, not a crash.
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    cliError(`--out ${outDir} cannot hold the pages (${reason}); give a directory you can write`);
  }

  // Run the CLI's own script on this Node: its shebang would pick whatever `node` is first on PATH.
  const config = join(root, 'redocly.yaml');
  const result = spawnSync(
    process.execPath,
    [
      redocly,
      'build-docs',
      input,
      '--inlineBundle',
      '--openapi.disableTelemetry=true',
      '--title',
      'Agent Registry API reference',
      '--output',
      page,
      ...(existsSync(config) ? ['--config', config] : []),
    ],
    {
      cwd: outDir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  if (result.error) cliError(`could not run @redocly/cli (${result.error.message}); run npm ci`, 1);
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout}${result.stderr}`);
    cliError(`redocly build-docs failed with status ${result.status}; see its output above`, 1);
  }
  // Redoc's sidebar credit loads its logo from a CDN; offline that is a failed request, so it points at an inline image.
  const html = readFileSync(page, 'utf8').replace(
    /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g,
    redoclyLogo,
  );
  writeFileSync(page, html);
  console.log(page);
}

if (import.meta.main) main(process.argv.slice(2));
