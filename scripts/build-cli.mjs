#!/usr/bin/env node
// Bundles the CLI into dist-cli/ so `npx context-compiler` runs plain JavaScript: no TypeScript compiled
// at run time. The built-in scenarios are copied beside the bundle, where the CLI looks for them first.
// Also builds the Playwright page object (`context-compiler/playwright`) into dist-playwright/ as JavaScript
// with its declarations (Playwright compiles a user's own TypeScript tests, never a file in node_modules),
// and the library (`context-compiler`) into dist-lib/.
import { build } from 'esbuild';
import ts from 'typescript';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist-cli');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(root, 'src/cli/entry.ts')],
  outfile: join(out, 'context-compiler.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // SQLite finds its wasm next to its own module, so it stays a package import; everything else is bundled.
  // pg and pg-copy-streams (CommonJS, requiring Node built-ins) stay package imports too: a bundled require cannot
  // reach them from ESM.
  external: ['@sqlite.org/sqlite-wasm', 'pg', 'pg-copy-streams'],
  legalComments: 'linked',
  logLevel: 'warning',
});

// Scenario folders (scenario.json, its JSONL and its expectation suites) and the retrieval-foundation corpus; not the
// golden outputs.
const fixtures = join(root, 'fixtures');
for (const entry of readdirSync(fixtures, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  const files = readdirSync(join(fixtures, entry.name)).filter(
    (name) => name === 'scenario.json' || name.endsWith('.jsonl') || name.endsWith('.expect.json'),
  );
  if (files.length === 0 || (!files.includes('scenario.json') && entry.name !== 'retrieval-foundation')) continue;
  mkdirSync(join(out, 'fixtures', entry.name), { recursive: true });
  for (const name of files) cpSync(join(fixtures, entry.name, name), join(out, 'fixtures', entry.name, name));
}
if (!existsSync(join(out, 'fixtures', 'retry-policy', 'scenario.json')))
  throw new Error('build-cli: the default scenario was not copied');

const declarationOptions = {
  declaration: true,
  emitDeclarationOnly: true,
  strict: true,
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
  types: ['node'],
  skipLibCheck: true,
};

/** Emits declarations for `entries`, handing each file to `write`; fails the build on any diagnostic. */
function emitDeclarations(what, entries, options, write) {
  const program = ts.createProgram(entries, { ...declarationOptions, ...options });
  const emitted = program.emit(undefined, write);
  const problems = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (problems.length > 0)
    throw new Error(
      `build-cli: ${what}'s declarations: ${ts.formatDiagnostics(problems, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' })}`,
    );
}

const pageObject = join(root, 'src/playwright/page.ts');
const pageOut = join(root, 'dist-playwright');
rmSync(pageOut, { recursive: true, force: true });
await build({
  entryPoints: [pageObject],
  outfile: join(pageOut, 'index.js'),
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
emitDeclarations('the page object', [pageObject], {}, (name, text) => {
  if (name.endsWith('page.d.ts')) writeFileSync(join(pageOut, 'index.d.ts'), text);
});

// The library (`import … from 'context-compiler'`): one bundle for Node, one for a browser bundler (which
// resolves SQLite's package itself), and the declarations of everything their types reach.
const libOut = join(root, 'dist-lib');
rmSync(libOut, { recursive: true, force: true });
const libraryBuild = {
  bundle: true,
  format: 'esm',
  external: ['@sqlite.org/sqlite-wasm'],
  legalComments: 'linked',
  logLevel: 'warning',
};
await build({
  ...libraryBuild,
  entryPoints: [join(root, 'src/lib/node.ts')],
  outfile: join(libOut, 'node.js'),
  platform: 'node',
  target: 'node20',
});
await build({
  ...libraryBuild,
  entryPoints: [join(root, 'src/lib/browser.ts')],
  outfile: join(libOut, 'browser.js'),
  platform: 'browser',
  target: 'es2023',
});
emitDeclarations(
  'the library',
  [join(root, 'src/lib/node.ts')],
  { rootDir: root, declarationDir: join(libOut, 'types') },
  (name, text) => {
    mkdirSync(dirname(name), { recursive: true });
    writeFileSync(name, text);
  },
);
console.log(
  `built ${join('dist-cli', 'context-compiler.mjs')} and its fixtures; ${join('dist-playwright', 'index.js')}, ${join('dist-lib', 'node.js')} and ${join('dist-lib', 'browser.js')} with their declarations`,
);
