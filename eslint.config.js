import tseslint from 'typescript-eslint';

/** The core is pure: it may not reach into any composition root or platform code. */
const CORE_FORBIDDEN = [
  {
    group: ['**/app/**', '**/worker/**', '**/cli/**', '**/sqlite/**', '**/bench/**', '**/eval-cli/**', '**/adapters/**'],
    message: 'src/core is pure: it may not import app, worker, CLI, SQLite or adapter code. Inject what it needs.',
  },
  {
    group: ['react', 'react-dom', 'zustand', 'comlink', '@sqlite.org/sqlite-wasm', 'idb-keyval', 'pg', 'node:*'],
    message: 'src/core is pure: no UI, worker, storage, SQLite build, database client or Node built-ins.',
  },
];

/**
 * A spread argument list (`Math.max(...rows)`, `push(...ids)`) puts every element on the stack: past about
 * 100,000 elements it throws RangeError. Lists in our formats have no such limit, so fold or loop instead.
 */
const NO_SPREAD_ARGUMENTS = [
  { selector: 'CallExpression > SpreadElement.arguments', message: 'No spread arguments: a long array overflows the stack. Fold (reduce) or loop instead.' },
  { selector: 'NewExpression > SpreadElement.arguments', message: 'No spread arguments: a long array overflows the stack. Loop instead.' },
];

/**
 * Inputs become answers in one place, the library (src/lib: docs/API.md): reading inputs with the CLI's schemas
 * and errors, preparing a scenario, compiling and what a view shows of it, drilling, diffing, running suites. The
 * CLI and the worker's drill and Tests panel call it; they may import the core's types, formats and wording.
 */
const LIBRARY_MESSAGE = 'Turn inputs into answers through the library (src/lib), as every caller does: it reads them with the CLI schemas and errors.';
const ANSWER_ASSEMBLY = [
  { group: ['**/adapters/sqlite/compiler', '**/scenarios/prepare', '**/core/compile', '**/core/compile-stages'], allowTypeImports: true, message: LIBRARY_MESSAGE },
  { group: ['**/core/drill'], importNames: ['drill', 'receiptIntegrity'], message: LIBRARY_MESSAGE },
  { group: ['**/core/receipt-diff'], importNames: ['diffReceipts'], message: LIBRARY_MESSAGE },
  { group: ['**/core/expectations/run'], importNames: ['runSuite', 'runVariant'], message: LIBRARY_MESSAGE },
  { group: ['**/core/expectations/suite'], importNames: ['parseExpectationSuiteJson', 'checkSwitches', 'unknownSwitchIssues'], message: LIBRARY_MESSAGE },
  {
    group: ['**/core/passes/validate'],
    importNames: ['parseContractJson', 'validateContract', 'parseRecordsJsonl', 'createJsonlRecordReader', 'parseScenarioJson', 'joinScenarioRecords', 'parseReceiptJson'],
    message: LIBRARY_MESSAGE,
  },
];
/** What the CLI shows of a compilation is the library's `CompileDetail` too. */
const COMPILE_VIEW_ASSEMBLY = [
  { group: ['**/core/disclosure'], importNames: ['discloseOutcome'], message: LIBRARY_MESSAGE },
  { group: ['**/core/user-view'], importNames: ['buildUserView'], message: LIBRARY_MESSAGE },
  { group: ['**/core/passes/attest'], importNames: ['packetWithManifest'], message: LIBRARY_MESSAGE },
];

const NAMED_EXPORTS = { selector: 'ExportDefaultDeclaration', message: 'Named exports only.' };
const NO_CLOCK = { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'The core takes time as input; it does not read the clock.' };

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'dev-dist/**',
      'bench/browser/.dist/**',
      'bench/.cache/**',
      'examples/*/node_modules/**',
      'examples/*/test-results/**',
      'dist-cli/**',
      'dist-playwright/**',
      'dist-lib/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', NAMED_EXPORTS, ...NO_SPREAD_ARGUMENTS],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: CORE_FORBIDDEN }],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'The core has no DOM.' },
        { name: 'document', message: 'The core has no DOM.' },
        { name: 'self', message: 'The core has no worker scope.' },
        { name: 'performance', message: 'The core does not measure itself.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'The core is deterministic.' },
        { object: 'Date', property: 'now', message: 'The core takes time as input; it does not read the clock.' },
      ],
      'no-restricted-syntax': ['error', NAMED_EXPORTS, NO_CLOCK, ...NO_SPREAD_ARGUMENTS],
    },
  },
  {
    // Tests of the pure core need a real SQLite and a heap they can measure; only these test helpers may reach for them.
    files: ['src/core/test-support/node-driver.ts', 'src/core/test-support/node-heap.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The core's tests are composition roots: they compile over the SQLite store, as the CLI and the worker do.
    files: ['src/core/**/*.test.ts', 'src/core/test-support/**'],
    ignores: ['src/core/test-support/node-driver.ts', 'src/core/test-support/node-heap.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: CORE_FORBIDDEN[0].group.filter((group) => group !== '**/adapters/**').concat('**/adapters/postgres/**', '!**/adapters/sqlite/**'),
              message: 'Core tests reach the SQLite store only.',
            },
            CORE_FORBIDDEN[1],
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/sqlite/**', '@sqlite.org/sqlite-wasm', '**/cli/**'], message: 'The UI thread never runs SQLite or the CLI; talk to the worker.' },
            { group: ['**/adapters/**', 'pg'], message: 'The PostgreSQL adapter is Node only: it never enters the browser bundle.' },
            // A value import would bring zod into the page's first bundle, before z.config({ jitless: true }) has run.
            {
              group: ['**/worker/protocol'],
              allowTypeImports: true,
              message: 'The page imports only types from the worker protocol (its zod schemas must not load on the page); share constants through src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/adapters/postgres/**', '**/adapters/conformance/**', 'pg'], message: 'The PostgreSQL adapter is Node only: it never enters the browser bundle.' }] },
      ],
    },
  },
  {
    // The CLI is built on the library. The PostgreSQL path compiles in the database (src/adapters/postgres, Node only), which the library does not offer.
    files: ['src/cli/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/cli/database.ts', 'src/cli/check-database.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...ANSWER_ASSEMBLY, ...COMPILE_VIEW_ASSEMBLY] }] },
  },
  {
    // The worker's drill, Tests panel and suite writing answer through the library; the session keeps its own state and views.
    files: ['src/worker/drill-check.ts', 'src/worker/expectation-runs.ts', 'src/worker/suite-writing.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: ANSWER_ASSEMBLY }] },
  },
  {
    // The library runs in Node and in a browser bundle: no UI, no worker session, no database adapter.
    files: ['src/lib/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '**/adapters/postgres/**', '**/adapters/conformance/**', 'pg', 'react', 'zustand'],
              message: 'The library is the core behind a function call over the SQLite store: no UI and no database server.',
            },
          ],
        },
      ],
    },
  },
  {
    // The service answers HTTP through the library: it compiles nothing itself and reaches no UI, worker or database.
    files: ['src/service/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '**/worker/**', '**/cli/**', '**/adapters/**', '**/sqlite/**', '**/core/compile', 'pg'],
              message: 'The service calls the library (src/lib/api.ts): no UI, worker, CLI, database or compiler of its own.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    // Tests spread small literal lists into fast-check's constantFrom and tuple; the corpus generator writes test data.
    files: ['**/*.test.{ts,tsx}', 'scripts/hostile-corpus.ts'],
    rules: { 'no-restricted-syntax': ['error', NAMED_EXPORTS] },
  },
  {
    // The lowering is being rewritten (issue 9); the core's tests keep the core's other rules.
    files: ['src/core/**/*.test.ts', 'src/core/test-support/**', 'src/adapters/sqlite/lower-admission.ts'],
    rules: { 'no-restricted-syntax': ['error', NAMED_EXPORTS, NO_CLOCK] },
  },
  {
    files: ['**/*.config.{ts,js}', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
