#!/usr/bin/env node
// Runs the bundled CLI. The package ships it built (npm pack builds it); in a clone of the repository the first
// run builds it from the sources (`npm run build:cli` does the same).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../dist-cli/context-compiler.mjs', import.meta.url);
const builder = new URL('../scripts/build-cli.mjs', import.meta.url);
if (!existsSync(bundle)) {
  if (!existsSync(builder)) {
    process.stderr.write('context-compiler: this installation has no CLI bundle (dist-cli/): reinstall the package.\n');
    process.exit(1);
  }
  process.stderr.write('context-compiler: building the CLI from the sources (first run in this clone)…\n');
  const { execFileSync } = await import('node:child_process');
  try {
    execFileSync(process.execPath, [fileURLToPath(builder)], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    process.stderr.write('context-compiler: the build failed; run `npm ci` in the clone, then `npm run build:cli`.\n');
    process.exit(1);
  }
}
// V8 keeps the bundle's compiled code in the system's temporary folder, so a run after the first skips compiling it
// (Node 22.1 and later; the cache is checked against the file and rebuilt when it changed).
module.enableCompileCache?.();
await import(bundle.href);
