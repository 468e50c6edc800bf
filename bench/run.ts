import { execFileSync, fork } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { capHeapGrowth } from '../src/cli/heap';
import { generateRecords, toJsonl } from './generate-records';
import { measureSize, readCorpusFile, type CorpusFile, type SizeResult } from './measure-size';
import { formatTable, growthExponent } from './stats';

/**
 * `npm run bench [-- --sizes 1000,10000,100000 --runs 20 --seed 42 --json]`
 * The runner writes each corpus to a JSONL file once (bench/.cache/), then measures each size in its
 * own Node process, which streams that file as the app streams a dropped one, so the peak memory is the
 * compiler's and not the generator's. In the same run it times the seed 000 reference compiler
 * (../shared/reference/seed000_scale.py) on as many resources, the figure the targets are ratios of.
 * One table is printed (or, with --json, the JSON that is also written to bench/results/).
 */
const here = dirname(fileURLToPath(import.meta.url));

const USAGE = 'usage: npm run bench [-- --sizes 1000,10000,100000 --runs 20 --seed 42 --json]';

/** The options, or a one-line reason and the usage (no stack trace) when they cannot be read. */
function readOptions() {
  try {
    const { values } = parseArgs({
      options: {
        sizes: { type: 'string', default: '1000,10000,100000' },
        runs: { type: 'string', default: '20' },
        seed: { type: 'string', default: '42' },
        json: { type: 'boolean', default: false },
        child: { type: 'string' },
        corpus: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const wholeNumber = (name: string, text: string, least: number) => {
      const value = Number(text.trim());
      if (!Number.isInteger(value) || value < least)
        throw new Error(`--${name} must be a whole number of at least ${least}, not "${text}"`);
      return value;
    };
    const sizes = values.sizes.split(',').map((size) => wholeNumber('sizes', size, 10));
    return { values, sizes, runs: wholeNumber('runs', values.runs, 1), seed: wholeNumber('seed', values.seed, 0) };
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}

const { values, sizes, runs, seed } = readOptions();

interface Measured extends SizeResult {
  /** The seed 000 reference `compile_context` on the same number of resources, best of 3, same run. */
  readonly reference: { readonly compileContextMs: number | null; readonly detail: string };
}

/** Writes the corpus once per size and seed; later runs reuse the file. */
function corpusFile(size: number): string {
  const folder = join(here, '.cache');
  mkdirSync(folder, { recursive: true });
  const meta = join(folder, `records-${size}-seed${seed}.json`);
  if (!existsSync(meta)) {
    const corpus = generateRecords(size, seed);
    const path = join(folder, `records-${size}-seed${seed}.jsonl`);
    writeFileSync(path, toJsonl(corpus.records));
    writeFileSync(meta, JSON.stringify({ path, requiredIds: corpus.requiredIds } satisfies CorpusFile));
  }
  return meta;
}

/** The reference's own output line: `seed000 compile_context n=100000: 124.3 ms (best of 3)`. */
function referenceMs(size: number): Measured['reference'] {
  const script = join(here, '../../shared/reference/seed000_scale.py');
  if (!existsSync(script)) return { compileContextMs: null, detail: `${script} not found` };
  try {
    const output = execFileSync('python3', [script, String(size)], { encoding: 'utf8', cwd: dirname(script) });
    const ms = /: ([\d.]+) ms/.exec(output)?.[1];
    return { compileContextMs: ms === undefined ? null : Number(ms), detail: output.trim() };
  } catch (error) {
    return { compileContextMs: null, detail: error instanceof Error ? error.message : String(error) };
  }
}

function measureInChild(size: number, meta: string): Promise<SizeResult> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(
      fileURLToPath(import.meta.url),
      ['--child', String(size), '--corpus', meta, '--runs', String(runs), '--seed', String(seed)],
      {
        execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    let result: SizeResult | null = null;
    child.on('message', (message) => {
      result = message as SizeResult;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      result && code === 0
        ? resolvePromise(result)
        : reject(new Error(`size ${size}: the measuring process exited with ${code}`)),
    );
  });
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

const ratio = (value: number, reference: number | null) =>
  reference === null || reference <= 0 ? Number.NaN : value / reference;

function table(results: readonly Measured[]): string {
  const header = ['metric', ...results.map((result) => `${result.size.toLocaleString('en-US')}`)];
  const growthHeader = results
    .slice(1)
    .map((result, index) => `growth ${shortSize(results[index]?.size ?? 0)}→${shortSize(result.size)}`);
  const row = (name: string, pick: (result: Measured) => number, digits = 1, grows = true): string[] => [
    name,
    ...results.map((result) => fixed(pick(result), digits)),
    ...results.slice(1).map((result, index) => {
      const before = results[index];
      return grows && before ? fixed(growthExponent(before.size, pick(before), result.size, pick(result)), 2) : '';
    }),
  ];
  const rows = [
    row('seed 000 reference compile_context ms', (r) => r.reference.compileContextMs ?? Number.NaN),
    row('parse+validate ms (streamed file)', (r) => r.parse.ms),
    row('parse+validate CPU ms', (r) => r.parse.cpuMs),
    row('parse+validate MB/s', (r) => r.parse.megabytesPerSecond, 1, false),
    row('index rows ms', (r) => r.indexMs),
    row('index rows CPU ms', (r) => r.indexCpuMs),
    row('first compile ms (admitted-set text index built)', (r) => r.firstCompileMs),
    row('first packet ms (parse + index + first compile)', (r) => r.firstPacketMs),
    row('cold compile p50 ms (new compiler, indexed database)', (r) => r.coldCompile.p50),
    row('cold compile CPU p50 ms', (r) => r.coldCompile.cpuP50),
    row('  × reference', (r) => ratio(r.coldCompile.p50, r.reference.compileContextMs), 2, false),
    row('compile p50 ms (same inputs again)', (r) => r.compile.p50),
    row('toggle, admission changes p50 ms', (r) => r.toggle.admissionChange.p50),
    row('toggle, admission changes p95 ms', (r) => r.toggle.admissionChange.p95),
    row('toggle, admission changes CPU p50 ms', (r) => r.toggle.admissionChange.cpuP50),
    row('toggle, admission unchanged p50 ms', (r) => r.toggle.noAdmissionChange.p50),
    row('toggle, admission unchanged p95 ms', (r) => r.toggle.noAdmissionChange.p95),
    row('toggle, admission unchanged CPU p50 ms', (r) => r.toggle.noAdmissionChange.cpuP50),
    row('recompile after query change p50 ms', (r) => r.recompileAfterQueryChange.p50),
    row('recompile after query change CPU p50 ms', (r) => r.recompileAfterQueryChange.cpuP50),
    row('recompile after gate change p50 ms', (r) => r.recompileAfterGateChange.p50),
    row('recompile after gate change CPU p50 ms', (r) => r.recompileAfterGateChange.cpuP50),
    row('  × reference', (r) => ratio(r.recompileAfterGateChange.p50, r.reference.compileContextMs), 2, false),
    row('whole-corpus text index ms (baselines)', (r) => r.corpusIndexMs),
    row('whole-corpus text index CPU ms', (r) => r.corpusIndexCpuMs),
    row('naive top-k p50 ms', (r) => r.naive.p50),
    row('post-filter p50 ms', (r) => r.postFilter.p50),
    row('peak RSS MB (whole benchmark process)', (r) => r.memory.peakRssMb, 0),
    row('peak RSS MB after a session (file, packet, baselines, toggles, edits)', (r) => r.memory.sessionPeakRssMb, 0),
    row('peak JS heap MB', (r) => r.memory.peakHeapUsedMb, 0),
    row('heap growth over 200 toggles MB', (r) => r.memory.toggleHeapGrowthMb, 2, false),
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
  if (values.child !== undefined && values.corpus !== undefined) {
    // The engine measured as the CLI's compile runs it.
    capHeapGrowth('compile');
    const result = await measureSize(readCorpusFile(values.corpus), Number(values.child), runs, seed);
    process.send?.(result);
    return;
  }
  const date = new Date().toISOString();
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
  const resultsDir = join(here, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `node-${date.replace(/[:.]/g, '-')}.json`);
  const results: Measured[] = [];
  const report = () => ({ date, machine, runs, seed, results });
  // Written after every size, so a long run that fails or is stopped keeps the sizes it finished.
  const save = () => writeFileSync(file, `${JSON.stringify(report(), null, 2)}\n`);
  let failure: unknown = null;
  for (const size of sizes) {
    if (!values.json) process.stderr.write(`measuring ${size} records (${runs} runs, seed ${seed})…\n`);
    try {
      const meta = corpusFile(size);
      const measured = await measureInChild(size, meta);
      results.push({ ...measured, reference: referenceMs(size) });
    } catch (error) {
      failure = error;
      break;
    }
    save();
    if (!values.json) process.stderr.write(`${size} records done; written to ${file}\n`);
  }
  if (values.json) process.stdout.write(`${JSON.stringify(report(), null, 2)}\n`);
  else if (results.length > 0)
    process.stdout.write(
      `${table(results)}\n\n${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; written to ${file}\n`,
    );
  if (failure !== null) throw failure;
}

await main();
