#!/usr/bin/env node
// Runs the bundled CLI (built by `npm run build:cli`, and by `npm ci` through the prepare script).
import { existsSync } from 'node:fs';

const bundle = new URL('../dist-cli/context-compiler.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('context-compiler is not built: run `npm run build:cli` (npm ci does it) in the package folder.\n');
  process.exit(1);
}
await import(bundle.href);
