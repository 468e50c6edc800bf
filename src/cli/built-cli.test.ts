import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/** The CLI as `npx context-compiler` runs it: the bundle built by scripts/build-cli.mjs, plain JavaScript. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/context-compiler.mjs');

beforeAll(() => {
  // Built here, so the test never runs a stale bundle; npm ci builds it too (prepare).
  execFileSync(process.execPath, [join(root, 'scripts/build-cli.mjs')], { stdio: 'pipe' });
}, 120_000);

const run = (args: readonly string[], cwd = mkdtempSync(join(tmpdir(), 'cc-built-')), entry = bin) =>
  spawnSync(process.execPath, [entry, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });

describe('the built CLI', () => {
  it('is JavaScript that loads no TypeScript loader', () => {
    const bundle = readFileSync(join(root, 'dist-cli/context-compiler.mjs'), 'utf8');
    expect(bundle).not.toMatch(/from ["']tsx|tsx\/esm/);
    expect(readFileSync(bin, 'utf8')).not.toContain('tsx');
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: context-compiler <command>');
  });

  it.skipIf(!('enableCompileCache' in module))(
    "keeps the bundle's compiled code for the next run, in the system's temporary folder",
    () => {
      const temporary = mkdtempSync(join(tmpdir(), 'cc-built-cache-'));
      const first = spawnSync(process.execPath, [bin, '--version'], {
        encoding: 'utf8',
        env: { ...process.env, TMPDIR: temporary, NODE_COMPILE_CACHE: undefined },
      });
      expect(first.status).toBe(0);
      expect(readdirSync(temporary)).toContain('node-compile-cache');
      rmSync(temporary, { recursive: true, force: true });
    },
  );

  it('finds the built-in scenarios beside the bundle, from any working directory', () => {
    // A copy of the bundle folder under node_modules still resolves its packages, but has no fixtures/ two levels up.
    const copy = join(root, 'node_modules/.cache/cc-built-cli');
    rmSync(copy, { recursive: true, force: true });
    cpSync(join(root, 'dist-cli'), copy, { recursive: true });
    const compiled = run(['compile'], undefined, join(copy, 'context-compiler.mjs'));
    expect(compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    expect(compiled.stdout).toMatch(/PACKET EMITTED: 4 records, 74 \/ 96 tokens/);
    const checked = run(['check'], undefined, join(copy, 'context-compiler.mjs'));
    expect(checked.stdout).toMatch(/^\d+ passed, 0 failed$/m);
    const tested = run(['test'], undefined, join(copy, 'context-compiler.mjs'));
    expect(tested.stderr).toBe('');
    expect(tested.status).toBe(0);
    expect(tested.stdout).toMatch(/^\d+ passed, 0 failed \(5 suites\)$/m);
    rmSync(copy, { recursive: true, force: true });
  });

  it('reports a directory and a missing file in one line, without a stack trace', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cc-built-'));
    const result = run(['compile', '--scenario', '.'], cwd);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/\.: is a directory; give a file/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    const missing = run(['drill', '--receipt', 'nope.json'], cwd);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('nope.json: no such file');
  });
});
