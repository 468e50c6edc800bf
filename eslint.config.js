import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The module table of docs/ARCHITECTURE.md, as lint enforces it: each folder and the folders it may import.
 * `typesFrom` may be imported for types only. A test (scripts/module-table.test.ts) compares this list with the
 * table and with the folders in src/, so a new folder without a row fails. Tests are composition roots and
 * exempt; what they may reach is ruled below.
 */
export const MODULES = [
  { path: 'src/core', mayImport: [] },
  { path: 'src/adapters/sqlite', mayImport: ['src/core'] },
  { path: 'src/adapters/postgres', mayImport: ['src/core', 'src/adapters/sqlite'] },
  {
    path: 'src/adapters/conformance',
    mayImport: ['src/core', 'src/adapters/sqlite', 'src/adapters/postgres', 'src/sqlite', 'src/shared', 'src/lib'],
  },
  { path: 'src/sqlite', mayImport: ['src/adapters/sqlite'] },
  { path: 'src/scenarios', mayImport: ['src/core'] },
  { path: 'src/shared', mayImport: [], typesFrom: ['src/worker'] },
  { path: 'src/eval', mayImport: ['src/core', 'src/adapters/sqlite', 'src/scenarios', 'src/shared'] },
  {
    path: 'src/cli',
    mayImport: [
      'src/core',
      'src/adapters/sqlite',
      'src/adapters/postgres',
      'src/adapters/conformance',
      'src/sqlite',
      'src/scenarios',
      'src/shared',
      'src/eval',
      'src/lib',
      'src/service',
    ],
  },
  { path: 'src/lib', mayImport: ['src/core', 'src/adapters/sqlite', 'src/sqlite', 'src/scenarios'] },
  { path: 'src/service', mayImport: ['src/core', 'src/lib', 'src/shared'] },
  {
    path: 'src/worker',
    mayImport: ['src/core', 'src/adapters/sqlite', 'src/sqlite', 'src/scenarios', 'src/shared', 'src/eval', 'src/lib'],
  },
  // Types only from the worker: a value import would load its zod schemas on the page before zod is made jitless.
  { path: 'src/app', mayImport: ['src/core', 'src/eval', 'src/shared'], typesFrom: ['src/worker'] },
  { path: 'src/playwright', mayImport: [] },
];

/** One lint element per row of the module table, and the policy that lets a row import only what its row names. */
const MODULE_BOUNDARIES = {
  plugins: { boundaries },
  files: ['src/**/*.{ts,tsx}'],
  ignores: ['**/*.test.{ts,tsx}', '**/test-support/**', 'src/test-setup.ts'],
  settings: {
    'boundaries/elements': MODULES.map(({ path }) => ({ type: path, pattern: `${path}/**`, partialMatch: false })),
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        message: '{{from.type}} may not import {{to.type}}: docs/ARCHITECTURE.md lists what each folder may import.',
        policies: MODULES.flatMap(({ path, mayImport, typesFrom = [] }) => [
          { from: { element: { type: path } }, allow: { to: { element: { types: { anyOf: [path, ...mayImport] } } } } },
          ...typesFrom.map((types) => ({
            from: { element: { type: path } },
            allow: { to: { element: { type: types } }, dependency: { kind: 'type' } },
          })),
        ]),
      },
    ],
  },
};

/**
 * The core is pure: no UI, worker, storage, SQLite build, database client or Node built-ins (folders: MODULES below).
 */
const CORE_FORBIDDEN_PACKAGES = {
  group: ['react', 'react-dom', 'zustand', 'comlink', '@sqlite.org/sqlite-wasm', 'idb-keyval', 'pg', 'node:*'],
  message: 'src/core is pure: no UI, worker, storage, SQLite build, database client or Node built-ins.',
};

/**
 * A spread argument list (`Math.max(...rows)`, `push(...ids)`) puts every element on the stack: past about
 * 100,000 elements it throws RangeError. Lists in our formats have no such limit, so fold or loop instead.
 */
const NO_SPREAD_ARGUMENTS = [
  {
    selector: 'CallExpression > SpreadElement.arguments',
    message: 'No spread arguments: a long array overflows the stack. Fold (reduce) or loop instead.',
  },
  {
    selector: 'NewExpression > SpreadElement.arguments',
    message: 'No spread arguments: a long array overflows the stack. Loop instead.',
  },
];

/**
 * Inputs become answers in one place, the library (src/lib: docs/API.md): reading inputs with the CLI's schemas
 * and errors, preparing a scenario, compiling and what a view shows of it, drilling, diffing, running suites. The
 * CLI and the worker's drill and Tests panel call it; they may import the core's types, formats and wording.
 */
const LIBRARY_MESSAGE =
  'Turn inputs into answers through the library (src/lib), as every caller does: it reads them with the CLI schemas and errors.';
const ANSWER_ASSEMBLY = [
  {
    group: ['**/adapters/sqlite/compiler', '**/core/compile', '**/core/compile-stages'],
    allowTypeImports: true,
    message: LIBRARY_MESSAGE,
  },
  { group: ['**/core/drill'], importNames: ['drill', 'receiptIntegrity'], message: LIBRARY_MESSAGE },
  { group: ['**/core/receipt-diff'], importNames: ['diffReceipts'], message: LIBRARY_MESSAGE },
  { group: ['**/core/expectations/run'], importNames: ['runSuite', 'runVariant'], message: LIBRARY_MESSAGE },
  {
    group: ['**/core/expectations/suite'],
    importNames: ['parseExpectationSuiteJson', 'checkSwitches', 'unknownSwitchIssues'],
    message: LIBRARY_MESSAGE,
  },
  {
    group: ['**/core/phases/1-validate/validate'],
    importNames: [
      'parseContractJson',
      'validateContract',
      'parseRecordsJsonl',
      'createJsonlRecordReader',
      'parseScenarioJson',
      'joinScenarioRecords',
    ],
    message: LIBRARY_MESSAGE,
  },
  {
    group: ['**/core/phases/1-validate/validate-receipt'],
    importNames: ['parseReceiptJson'],
    message: LIBRARY_MESSAGE,
  },
];
/** What the CLI shows of a compilation is the library's `CompileDetail` too. */
const COMPILE_VIEW_ASSEMBLY = [
  { group: ['**/core/disclosure'], importNames: ['discloseOutcome'], message: LIBRARY_MESSAGE },
  { group: ['**/core/user-view'], importNames: ['buildUserView'], message: LIBRARY_MESSAGE },
  { group: ['**/core/phases/7-attest/attest'], importNames: ['packetWithManifest'], message: LIBRARY_MESSAGE },
];

const NAMED_EXPORTS = { selector: 'ExportDefaultDeclaration', message: 'Named exports only.' };
const NO_CLOCK = {
  selector: "NewExpression[callee.name='Date'][arguments.length=0]",
  message: 'The core takes time as input; it does not read the clock.',
};

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
  MODULE_BOUNDARIES,
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
      'no-restricted-imports': ['error', { patterns: [CORE_FORBIDDEN_PACKAGES] }],
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
    // Tests of the pure core need a real SQLite and a heap they can measure; only these test helpers may reach for
    // them.
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
              group: [
                '**/app/**',
                '**/worker/**',
                '**/cli/**',
                '**/bench/**',
                '**/adapters/postgres/**',
                '**/adapters/conformance/**',
              ],
              message: 'Core tests reach the SQLite store only.',
            },
            CORE_FORBIDDEN_PACKAGES,
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
            { group: ['@sqlite.org/sqlite-wasm'], message: 'The UI thread never runs SQLite; talk to the worker.' },
            { group: ['pg'], message: 'The PostgreSQL client is Node only: it never enters the browser bundle.' },
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
        {
          patterns: [
            { group: ['pg'], message: 'The PostgreSQL client is Node only: it never enters the browser bundle.' },
          ],
        },
      ],
    },
  },
  {
    // The CLI is built on the library. The PostgreSQL path compiles in the database (src/adapters/postgres, Node only),
    // which the library does not offer.
    files: ['src/cli/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/cli/database.ts', 'src/cli/check-database.ts', 'src/cli/commands/audit-command.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [...ANSWER_ASSEMBLY, ...COMPILE_VIEW_ASSEMBLY] },
      ],
    },
  },
  {
    // The worker's drill, Tests panel and suite writing answer through the library; the session keeps its own state and
    // views.
    files: [
      'src/worker/comparisons/drill-check.ts',
      'src/worker/suites/expectation-runs.ts',
      'src/worker/suites/suite-writing.ts',
    ],
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
              group: ['pg', 'react', 'zustand'],
              message:
                'The library is the core behind a function call over the SQLite store: no UI and no database server.',
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
              group: ['**/core/compile', 'pg'],
              message:
                'The service calls the library (src/lib/api.ts): no UI, worker, CLI, database or compiler of its own.',
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
    files: ['**/*.test.{ts,tsx}', 'scripts/hostile-corpus.ts', 'scripts/hostile-corpus/*.ts'],
    rules: { 'no-restricted-syntax': ['error', NAMED_EXPORTS] },
  },
  {
    // The core's tests keep the core's other rules.
    files: ['src/core/**/*.test.ts', 'src/core/test-support/**'],
    rules: { 'no-restricted-syntax': ['error', NAMED_EXPORTS, NO_CLOCK] },
  },
  {
    files: ['**/*.config.{ts,js}', 'eslint.config.js', 'eslint.config.d.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
