#!/usr/bin/env node
// The package as a user gets it: packs the tarball (after `npm run build`, which prepack runs on a real
// `npm pack`), checks what it holds, installs it into a fresh project in the system's temporary folder (no
// path back to this repository), and there runs the CLI, the library, the page object and `serve`.
//   npm run build && node scripts/installed-package-test.mjs
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'cc-installed-'));
const results = [];

function check(name, condition, detail = '') {
  results.push({ name, passed: Boolean(condition) });
  console.log(`${condition ? 'ok  ' : 'FAIL'} ${name}${condition || detail === '' ? '' : `\n     ${detail}`}`);
}

const run = (command, args, cwd) => {
  try {
    return {
      status: 0,
      stdout: execFileSync(command, args, {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      }),
    };
  } catch (error) {
    return { status: error.status ?? 1, stdout: `${error.stdout ?? ''}${error.stderr ?? ''}` };
  }
};

try {
  // 1. The tarball: what users run, and nothing else.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  const files = packed[0].files.map((file) => file.path);
  for (const needed of [
    'bin/context-compiler.mjs',
    'dist-cli/context-compiler.mjs',
    'dist-cli/fixtures/retry-policy/scenario.json',
    'dist-lib/node.js',
    'dist-lib/browser.js',
    'dist-lib/types/src/lib/node.d.ts',
    'dist-playwright/index.js',
    'dist-playwright/index.d.ts',
    'dist/index.html',
    'dist/schema/contract.schema.json',
    'LICENSE',
    'README.md',
    'package.json',
  ]) {
    check(`the tarball holds ${needed}`, files.includes(needed));
  }
  const stray = files.filter(
    (file) => /^(src|e2e|bench|scripts|fixtures|docs|examples|\.ci|\.github)\//.test(file) || file.endsWith('.map'),
  );
  check(
    'the tarball holds no sources, tests, benchmarks or source maps',
    stray.length === 0,
    stray.slice(0, 5).join(', '),
  );

  // 2. A user's own project, installing only that tarball.
  const project = join(work, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'a-users-project', private: true, type: 'module' }),
  );
  const installed = run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed[0].filename)],
    project,
  );
  check('npm install of the tarball succeeds', installed.status === 0, installed.stdout);
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
  const pulled = Object.keys(lock.packages).filter(
    (path) => path.startsWith('node_modules/') && path !== 'node_modules/context-compiler',
  );
  check(
    'installing it pulls in only what the bundles import',
    pulled.every((path) =>
      /node_modules\/(@sqlite\.org\/sqlite-wasm|pg|pg-[\w-]+|postgres-[\w-]+|pgpass|split2|xtend)$/.test(path),
    ),
    pulled.join(', '),
  );

  // 3. The CLI.
  const cli = (...args) => run('npx', ['--no-install', 'context-compiler', ...args], project);
  check('npx context-compiler --version prints the version', cli('--version').stdout.trim() === version);
  const compiled = cli('compile');
  check(
    'compile runs the default scenario (exit 0, packet emitted)',
    compiled.status === 0 && compiled.stdout.includes('PACKET EMITTED'),
    compiled.stdout.slice(0, 400),
  );
  const tested = cli('test');
  check('test runs the shipped suites (exit 0)', tested.status === 0, tested.stdout.slice(-400));

  // 4. The library and the page object, imported by package name.
  const script = `
    import { compile, version } from 'context-compiler';
    import { ContextCompilerPage } from 'context-compiler/playwright';
    import { readFileSync } from 'node:fs';
    const folder = new URL('./node_modules/context-compiler/dist-cli/fixtures/retry-policy/', import.meta.url);
    const answer = await compile({ scenario: readFileSync(new URL('scenario.json', folder), 'utf8'), files: { 'records.jsonl': readFileSync(new URL('records.jsonl', folder), 'utf8') } });
    console.log(JSON.stringify({ version, ok: answer.ok, status: answer.ok && answer.value.status, page: typeof ContextCompilerPage }));`;
  writeFileSync(join(project, 'use.mjs'), script);
  const used = run(process.execPath, ['use.mjs'], project);
  let usedJson = null;
  try {
    usedJson = JSON.parse(used.stdout.trim().split('\n').at(-1));
  } catch {
    usedJson = null;
  }
  check(
    'the library compiles by package name',
    usedJson?.version === version && usedJson.ok === true && usedJson.status === 'packet',
    used.stdout.slice(0, 400),
  );
  check('the page object imports by package name', usedJson?.page === 'function', used.stdout.slice(0, 400));
  cpSync(join(root, 'examples/library/compile.mjs'), join(project, 'compile.mjs'));
  const example = run(process.execPath, ['compile.mjs'], project);
  check(
    "docs/API.md's example runs: a packet, and a current receipt",
    example.status === 0 && example.stdout.includes(': packet') && example.stdout.includes('drill: RECEIPT_CURRENT'),
    example.stdout.slice(0, 400),
  );

  // 5. A browser bundler resolves the package to its browser entry and bundles it with no Node built-in.
  const { build } = await import('esbuild');
  writeFileSync(
    join(project, 'browser-entry.mjs'),
    "import { compile, version } from 'context-compiler';\nexport { compile, version };\n",
  );
  const bundled = await build({
    absWorkingDir: project,
    entryPoints: ['browser-entry.mjs'],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    metafile: true,
  }).catch((error) => ({ error }));
  const inputs = 'error' in bundled ? [] : Object.keys(bundled.metafile.inputs);
  check(
    'a browser bundler takes the browser entry and no Node built-in',
    inputs.some((input) => input.endsWith('dist-lib/browser.js')) && !inputs.some((input) => input.startsWith('node:')),
    'error' in bundled ? String(bundled.error) : inputs.filter((input) => input.startsWith('node:')).join(', '),
  );

  // 6. serve: the app and the API, then a clean stop.
  const server = spawn(
    process.execPath,
    [join(project, 'node_modules/context-compiler/bin/context-compiler.mjs'), 'serve', '--port', '0'],
    { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise((resolve) => {
    let said = '';
    const timer = setTimeout(() => resolve(null), 30_000);
    server.stderr.on('data', (chunk) => {
      said += chunk;
      const found = /at (http:\/\/\S+)/.exec(said);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
  });
  check('serve announces its address', url !== null);
  if (url !== null) {
    const page = await fetch(url);
    check(
      'serve serves the built app with its CSP',
      page.status === 200 &&
        (await page.text()).includes('<div id="root">') &&
        (page.headers.get('content-security-policy') ?? '').includes("'wasm-unsafe-eval'"),
    );
    const health = await (await fetch(new URL('api/health', url))).json();
    check('the API answers its health with the version', health.version === version);
    const answer = await fetch(new URL('api/compile', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scenario: 'retry-policy', view: 'user' }),
    });
    const body = await answer.json();
    check(
      'the API compiles a built-in scenario in the user view',
      answer.status === 200 && body.status === 'packet' && body.receipt === null,
    );
  }
  const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
  server.kill('SIGTERM');
  check('serve stops on SIGTERM with exit 0', (await exited) === 0);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const failed = results.filter((result) => !result.passed).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
