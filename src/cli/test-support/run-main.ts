import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../main';

/** Runs the CLI's `main` in `cwd` (a fresh temporary folder unless given) and gathers what it printed. */
export async function runMain(args: readonly string[], cwd = mkdtempSync(join(tmpdir(), 'cc-cli-'))) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd });
  return { code, stdout, stderr, cwd };
}
