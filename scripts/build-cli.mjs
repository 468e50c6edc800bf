#!/usr/bin/env node
// Bundles the CLI into dist-cli/ so `npx context-compiler` runs plain JavaScript: no TypeScript compiled
// at run time. The built-in scenarios are copied beside the bundle, where the CLI looks for them first.
// Also builds the Playwright page object (`context-compiler/playwright`) into dist-playwright/ as JavaScript
// with its declarations: Playwright compiles a user's own TypeScript tests, never a file in node_modules.
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
  // pg and pg-copy-streams (CommonJS, requiring Node built-ins) stay package imports too: a bundled require cannot reach them from ESM.
  external: ['@sqlite.org/sqlite-wasm', 'pg', 'pg-copy-streams'],
  legalComments: 'linked',
  logLevel: 'warning',
});

// Scenario folders (scenario.json, its JSONL and its expectation suites) and the retrieval-foundation corpus; not the golden outputs.
const fixtures = join(root, 'fixtures');
for (const entry of readdirSync(fixtures, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  const files = readdirSync(join(fixtures, entry.name)).filter((name) => name === 'scenario.json' || name.endsWith('.jsonl') || name.endsWith('.expect.json'));
  if (files.length === 0 || (!files.includes('scenario.json') && entry.name !== 'retrieval-foundation')) continue;
  mkdirSync(join(out, 'fixtures', entry.name), { recursive: true });
  for (const name of files) cpSync(join(fixtures, entry.name, name), join(out, 'fixtures', entry.name, name));
}
if (!existsSync(join(out, 'fixtures', 'retry-policy', 'scenario.json'))) throw new Error('build-cli: the default scenario was not copied');

const pageObject = join(root, 'src/playwright/page.ts');
const pageOut = join(root, 'dist-playwright');
rmSync(pageOut, { recursive: true, force: true });
await build({ entryPoints: [pageObject], outfile: join(pageOut, 'index.js'), bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
const declarations = ts.createProgram([pageObject], {
  declaration: true,
  emitDeclarationOnly: true,
  strict: true,
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: ['node'],
  skipLibCheck: true,
});
const emitted = declarations.emit(undefined, (name, text) => {
  if (name.endsWith('page.d.ts')) writeFileSync(join(pageOut, 'index.d.ts'), text);
});
const problems = [...ts.getPreEmitDiagnostics(declarations), ...emitted.diagnostics];
if (problems.length > 0) throw new Error(`build-cli: the page object's declarations: ${ts.formatDiagnostics(problems, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' })}`);
console.log(`built ${join('dist-cli', 'context-compiler.mjs')} and its fixtures; ${join('dist-playwright', 'index.js')} and its declarations`);
