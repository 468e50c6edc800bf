import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureSize, type SizeResult } from './measure-size';
import { formatTable, growthExponent } from './stats';

/**
 * `npm run bench [-- --sizes 1000,10000,100000 --runs 20 --seed 42 --json]`
 * Each size runs in its own Node process so its peak memory is its own, then one table is printed
 * (or, with --json, the JSON that is also written to bench/results/).
 */
const here = dirname(fileURLToPath(import.meta.url));

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    runs: { type: 'string', default: '20' },
    seed: { type: 'string', default: '42' },
    json: { type: 'boolean', default: false },
    child: { type: 'string' },
  },
});

const runs = Number(values.runs);
const seed = Number(values.seed);

function measureInChild(size: number): Promise<SizeResult> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', String(size), '--runs', String(runs), '--seed', String(seed)], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: SizeResult | null = null;
    child.on('message', (message) => {
      result = message as SizeResult;
    });
    child.on('error', reject);
    child.on('exit', (code) => (result && code === 0 ? resolvePromise(result) : reject(new Error(`size ${size}: the measuring process exited with ${code}`))));
  });
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

function table(results: readonly SizeResult[]): string {
  const header = ['metric', ...results.map((result) => `${result.size.toLocaleString('en-US')}`)];
  const growthHeader = results.slice(1).map((result, index) => `growth ${shortSize(results[index]?.size ?? 0)}→${shortSize(result.size)}`);
  const row = (name: string, pick: (result: SizeResult) => number, digits = 1, grows = true): string[] => [
    name,
    ...results.map((result) => fixed(pick(result), digits)),
    ...results.slice(1).map((result, index) => {
      const before = results[index];
      return grows && before ? fixed(growthExponent(before.size, pick(before), result.size, pick(result)), 2) : '';
    }),
  ];
  const rows = [
    row('parse+validate p50 ms', (r) => r.parse.ms),
    row('parse+validate CPU p50 ms', (r) => r.parse.cpuMs),
    row('parse+validate first run ms', (r) => r.parse.firstMs),
    row('parse+validate records/s', (r) => r.parse.recordsPerSecond, 0, false),
    row('parse+validate MB/s', (r) => r.parse.megabytesPerSecond, 1, false),
    row('FTS5 index build ms', (r) => r.indexMs),
    row('FTS5 index build CPU ms', (r) => r.indexCpuMs),
    row('first compile ms (cold caches)', (r) => r.firstCompileMs),
    row('compile p50 ms', (r) => r.compile.p50),
    row('compile p95 ms', (r) => r.compile.p95),
    row('compile CPU p50 ms', (r) => r.compile.cpuP50),
    row('naive top-k p50 ms', (r) => r.naive.p50),
    row('post-filter p50 ms', (r) => r.postFilter.p50),
    row('recompile after toggle p50 ms', (r) => r.recompileAfterToggle.p50),
    row('recompile after toggle p95 ms', (r) => r.recompileAfterToggle.p95),
    row('recompile after toggle CPU p50 ms', (r) => r.recompileAfterToggle.cpuP50),
    row('recompile after query change p50 ms', (r) => r.recompileAfterQueryChange.p50),
    row('recompile after query change CPU p50 ms', (r) => r.recompileAfterQueryChange.cpuP50),
    row('recompile after gate change p50 ms', (r) => r.recompileAfterGateChange.p50),
    row('recompile after gate change CPU p50 ms', (r) => r.recompileAfterGateChange.cpuP50),
    row('peak RSS MB', (r) => r.memory.peakRssMb, 0),
    row('peak JS heap MB', (r) => r.memory.peakHeapUsedMb, 0),
    row('receipt kB', (r) => r.receipt.bytes / 1024, 0),
    row('JSONL MB', (r) => r.jsonlBytes / 1024 / 1024, 1, false),
  ];
  const phaseNames = Object.keys(results[0]?.phases ?? {});
  for (const name of phaseNames) rows.push(row(`  phase ${name} CPU p50 ms`, (r) => r.phases[name] ?? Number.NaN, 1));
  return formatTable([...header, ...growthHeader], rows);
}

function shortSize(size: number): string {
  return size >= 1000 ? `${size / 1000}k` : String(size);
}

async function main(): Promise<void> {
  if (values.child !== undefined) {
    const result = await measureSize(Number(values.child), runs, seed);
    process.send?.(result);
    return;
  }
  const sizes = values.sizes.split(',').map((size) => Number(size.trim()));
  if (sizes.some((size) => !Number.isInteger(size) || size < 10) || !Number.isInteger(runs) || runs < 1) throw new Error('--sizes needs integers ≥ 10 and --runs a positive integer');
  const date = new Date().toISOString();
  const machine = { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, node: process.version, platform: `${process.platform} ${process.arch}` };
  const resultsDir = join(here, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `node-${date.replace(/[:.]/g, '-')}.json`);
  const results: SizeResult[] = [];
  const report = () => ({ date, machine, runs, seed, results });
  // Written after every size, so a long run that fails or is stopped keeps the sizes it finished.
  const save = () => writeFileSync(file, `${JSON.stringify(report(), null, 2)}\n`);
  let failure: unknown = null;
  for (const size of sizes) {
    if (!values.json) process.stderr.write(`measuring ${size} records (${runs} runs, seed ${seed})…\n`);
    try {
      results.push(await measureInChild(size));
    } catch (error) {
      failure = error;
      break;
    }
    save();
    if (!values.json) process.stderr.write(`${size} records done; written to ${file}\n`);
  }
  if (values.json) process.stdout.write(`${JSON.stringify(report(), null, 2)}\n`);
  else if (results.length > 0) process.stdout.write(`${table(results)}\n\n${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; written to ${file}\n`);
  if (failure !== null) throw failure;
}

await main();
