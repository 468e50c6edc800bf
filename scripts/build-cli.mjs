#!/usr/bin/env node
// Bundles the CLI into dist-cli/ so `npx context-compiler` runs plain JavaScript: no TypeScript compiled
// at run time. The built-in scenarios are copied beside the bundle, where the CLI looks for them first.
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
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
  // pg (CommonJS, requiring Node built-ins) stays a package import too: a bundled require cannot reach them from ESM.
  external: ['@sqlite.org/sqlite-wasm', 'pg'],
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
console.log(`built ${join('dist-cli', 'context-compiler.mjs')} and its fixtures`);
