import '../src/shared/jitless-zod';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compileInDatabase } from '../src/adapters/postgres/compile';
import { connect } from '../src/adapters/postgres/connect';
import { loadRecordSet } from '../src/adapters/postgres/load';
import { createTokeniser } from '../src/adapters/postgres/tokens';
import { contractSchema } from '../src/core/format/contract';
import { createJsonlRecordReader, type RecordSet } from '../src/core/passes/validate';
import { openInMemoryDatabase } from '../src/sqlite/load-sqlite';
import { benchContract, generateRecords, toJsonl } from './generate-records';
import { formatTable, growthExponent, percentile } from './stats';
import { installSha256InNode } from '../src/cli/node-sha256';

installSha256InNode();

/**
 * `npm run bench:postgres [-- --sizes 100000,1000000 --runs 3]`, with POSTGRES_URL set or through
 * scripts/with-postgres.sh (the npm script does that). Each size runs in its own Node process, against a
 * schema of its own that it drops: the load (validate, tokenise, one transaction), the compile in the
 * database (p50 of --runs), one record changed then loaded and compiled again, and the process's peak RSS.
 */
const USAGE = 'usage: npm run bench:postgres [-- --sizes 100000,1000000 --runs 3]';

interface SizeResult {
  readonly records: number;
  readonly loadMs: number;
  readonly compileP50Ms: number;
  readonly reloadOneMs: number;
  readonly recompileMs: number;
  readonly peakRssMb: number;
}

function readSet(text: string): RecordSet {
  const reader = createJsonlRecordReader('bench.jsonl');
  reader.push(text);
  const read = reader.finish();
  if (!read.ok) throw new Error(read.error.message);
  return read.value;
}

async function measure(size: number, runs: number): Promise<SizeResult> {
  const url = process.env.POSTGRES_URL;
  if (url === undefined) throw new Error('POSTGRES_URL is not set: run through scripts/with-postgres.sh');
  const { records, requiredIds } = generateRecords(size, 42);
  const contract = contractSchema.parse(benchContract(requiredIds));
  const opened = await connect(url, `cc_bench_${size}`);
  if (!opened.ok) throw new Error(opened.error.message);
  const database = opened.value;
  const tokeniser = createTokeniser(await openInMemoryDatabase());
  try {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    const time = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
      const start = performance.now();
      const value = await work();
      return [value, performance.now() - start];
    };
    const [, loadMs] = await time(async () => loadRecordSet(database, 'bench.jsonl', readSet(toJsonl(records)), tokeniser));
    const compiles: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const [compiled, ms] = await time(async () => compileInDatabase(database, contract, tokeniser));
      if (!compiled.ok) throw new Error(compiled.error.message);
      compiles.push(ms);
    }
    const changed = records.map((record, index) => (index === Math.floor(size / 2) ? { ...record, access: { ...record.access, labels: ['investigation'] } } : record));
    const [, reloadOneMs] = await time(async () => loadRecordSet(database, 'bench.jsonl', readSet(toJsonl(changed)), tokeniser));
    const [, recompileMs] = await time(async () => compileInDatabase(database, contract, tokeniser));
    return { records: size, loadMs, compileP50Ms: percentile(compiles, 50), reloadOneMs, recompileMs, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  } finally {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`).catch(() => undefined);
    await database.end();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100000,1000000' }, runs: { type: 'string', default: '3' }, child: { type: 'string' } } });
  const runs = Number(values.runs);
  if (values.child !== undefined) {
    process.send?.(await measure(Number(values.child), runs));
    return;
  }
  const sizes = values.sizes.split(',').map(Number);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1) || !Number.isInteger(runs) || runs < 1) throw new Error(`sizes and runs must be positive integers\n${USAGE}`);
  const results: SizeResult[] = [];
  for (const size of sizes) {
    const child = fork(fileURLToPath(import.meta.url), ['--child', String(size), '--runs', String(runs)], { execArgv: ['--import', 'tsx', '--max-old-space-size=8192'] });
    results.push(await new Promise<SizeResult>((resolve, reject) => {
      child.on('message', (message) => resolve(message as SizeResult));
      child.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`the ${size}-record run exited with ${code}`))));
    }));
  }
  const ms = (value: number) => `${(value / 1000).toFixed(2)} s`;
  console.log(formatTable(['records', 'load', 'compile p50', 'reload 1 changed', 'recompile', 'peak RSS'], results.map((r) => [String(r.records), ms(r.loadMs), ms(r.compileP50Ms), ms(r.reloadOneMs), ms(r.recompileMs), `${r.peakRssMb.toFixed(0)} MB`])));
  const [first, last] = [results[0], results[results.length - 1]];
  if (first && last && first !== last) {
    const growth = (pick: (r: SizeResult) => number) => growthExponent(first.records, pick(first), last.records, pick(last)).toFixed(2);
    console.log(`growth exponent ${first.records} -> ${last.records}: load ${growth((r) => r.loadMs)}, compile ${growth((r) => r.compileP50Ms)}, recompile ${growth((r) => r.recompileMs)}, RSS ${growth((r) => r.peakRssMb)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
