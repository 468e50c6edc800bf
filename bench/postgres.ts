import '../src/shared/jitless-zod';
import { fork } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  compileInDatabase,
  createDatabaseCompiler,
  createPostgresStore,
  inSnapshot,
} from '../src/adapters/postgres/compile-in-database';
import type { PlanAnswer } from '../src/adapters/postgres/answer';
import type { Database } from '../src/adapters/postgres/schema';
import type { Tokeniser } from '../src/adapters/postgres/tokens';
import { compareStrings } from '../src/core/canonical';
import type { Contract } from '../src/core/format/contract';
import { resolve } from '../src/core/phases/2-resolve/resolve';
import { createRecordSet } from '../src/core/phases/1-validate/validate';
import { buildAdmissionPlan, planDigest } from '../src/core/phases/4-admit/admission-plan';
import { connect } from '../src/adapters/postgres/connect';
import { loadRecordLines, type LoadMode } from '../src/adapters/postgres/load-records';
import { createUnicodeTokeniser } from '../src/adapters/postgres/unicode61';
import { contractSchema } from '../src/core/format/contract';
import type { CompileError, Result } from '../src/core/errors';
import { openRecordsFile } from '../src/cli/read-file';
import { benchContract, generateRecords } from './generate-records';

/**
 * The scoped contract's scope, and how many records of every size hold it: about a thousand of them pass every other
 * gate.
 */
const SCOPED = { scope: 'escalations', records: 11_000 } as const;
/** Candidates the in-database answer returns. */
const TOP = 200;
import type { RecordInput } from '../src/core/format/record';
import { formatTable, growthExponent, percentile } from './stats';
import { sha256InNode } from '../src/lib/node-sha256';

/**
 * `npm run bench:postgres [-- --sizes 100000,1000000 --runs 3]`, with POSTGRES_URL set or through
 * scripts/with-postgres.sh (the npm script does that). The corpus of each size is written to a JSONL file,
 * a second file with one record changed, and a third holding another record changed; then a Node process of
 * its own, against a schema of its own that it drops, does what `context-compiler load` and `compile --database`
 * do: the load (the file streamed, validated, tokenised, one transaction), the compile in the database (p50 of
 * --runs), the changed file loaded and compiled again, the third file upserted (`load --upsert`), the answers
 * the database gives alone (`answerPlan`) for the bench contract and for a scoped one whose admitted set
 * stays near a thousand records at every size, that scoped contract's whole compile (its growth from the smallest size to
 * the largest is what a million more refused records add), and its peak RSS, which is then the CLI's, not the
 * generator's.
 */
const USAGE = 'usage: npm run bench:postgres [-- --sizes 100000,1000000 --runs 3]';

/** Wall time, this process's CPU (user + sys) and the server backend's CPU of one step, in ms. */
interface Timing {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly serverCpuMs: number;
}

interface SizeResult {
  readonly records: number;
  readonly load: Timing;
  readonly compileP50: Timing;
  readonly reloadOne: Timing;
  readonly recompile: Timing;
  readonly upsertOne: Timing;
  /**
   * The answers in the database alone (`answerPlan`: admission, statistics, refused counts, top candidates, digest),
   * p50 of --runs, for the bench contract and the scoped one.
   */
  readonly answerP50: Timing;
  readonly scopedAnswerP50: Timing;
  /** The whole compile of the scoped contract, p50 of --runs: what more refused records add to a compile. */
  readonly scopedCompileP50: Timing;
  readonly scopedAdmitted: number;
  readonly peakRssMb: number;
}

/**
 * What a compile asks the database, without reading the corpus back: the plan from the contract and the
 * broken links the load kept, then one statement's answers.
 */
async function answerInDatabase(
  database: Database,
  contract: Contract,
  tokeniser: Tokeniser,
): Promise<Result<PlanAnswer, CompileError>> {
  return inSnapshot(database, {}, async (shards) => {
    const store = await createPostgresStore(sha256InNode, database, tokeniser, () => shards);
    if (!store.ok) return store;
    // The contract's side of resolve reads no record.
    const resolved = resolve(contract, createRecordSet(sha256InNode, []));
    if (!resolved.ok) return resolved;
    const plan = buildAdmissionPlan(
      resolved.value.contract,
      [...(await store.value.brokenSupersessions()).keys()].sort(compareStrings),
    );
    return store.value.answerPlan(plan, planDigest(sha256InNode, plan), contract.query, TOP);
  });
}

/**
 * CPU ms of a process on this machine from /proc (the server is local: the throwaway cluster or a local POSTGRES_URL).
 */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

function expectOk<T>(result: Result<T, CompileError>): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

async function writeJsonl(path: string, records: readonly RecordInput[]): Promise<void> {
  const out = createWriteStream(path);
  for (const record of records)
    if (!out.write(`${JSON.stringify(record)}\n`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  out.end();
  await finished(out);
}

/** The two files of a size and the ids the bench contract requires. */
async function writeCorpus(size: number, folder: string): Promise<readonly string[]> {
  const { records: generated, requiredIds } = generateRecords(size, 42);
  const required = new Set(requiredIds);
  // The scoped contract's records: the first of every size, never a required one (the bench contract keeps those).
  const records = generated.map((record, index) =>
    index < SCOPED.records && !required.has(record.id) ? { ...record, scope: SCOPED.scope } : record,
  );
  await writeJsonl(join(folder, 'records.jsonl'), records);
  // The changed record is one the bench contract refuses by its project before and after, so the recompile measures a
  // change that touches no admitted record.
  const middle = Math.floor(size / 2);
  const refusedAt = records.findIndex((record, index) => index >= middle && record.project !== 'atlas');
  const changed = records[refusedAt];
  if (changed !== undefined)
    records[refusedAt] = { ...changed, access: { ...changed.access, labels: ['investigation'] } };
  await writeJsonl(join(folder, 'changed.jsonl'), records);
  const other = records[middle + 1];
  if (other !== undefined)
    await writeJsonl(join(folder, 'one.jsonl'), [{ ...other, title: `${other.title} (upserted)` }]);
  return requiredIds;
}

async function measure(
  size: number,
  runs: number,
  folder: string,
  requiredIds: readonly string[],
): Promise<SizeResult> {
  const url = process.env.POSTGRES_URL;
  if (url === undefined) throw new Error('POSTGRES_URL is not set: run through scripts/with-postgres.sh');
  const load = async (file: string, mode: LoadMode = 'replace') => {
    const source = await openRecordsFile(join(folder, file), file);
    return source.ok ? loadRecordLines(sha256InNode, database, file, source.value.chunks, tokeniser, { mode }) : source;
  };
  const contract = contractSchema.parse(benchContract(requiredIds));
  const database = expectOk(await connect(url, `cc_bench_${size}`));
  const tokeniser = createUnicodeTokeniser();
  const { rows } = await database.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backend = rows[0]?.pid ?? 0;
  const time = async <T>(work: () => Promise<Result<T, CompileError>>): Promise<Timing> => {
    const [wall, cpu, server] = [performance.now(), process.cpuUsage(), processCpuMs(backend)];
    expectOk(await work());
    const used = process.cpuUsage(cpu);
    return {
      wallMs: performance.now() - wall,
      cpuMs: (used.user + used.system) / 1000,
      serverCpuMs: processCpuMs(backend) - server,
    };
  };
  try {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    const loaded = await time(async () => load('records.jsonl'));
    const compiles: Timing[] = [];
    for (let run = 0; run < runs; run += 1)
      compiles.push(await time(async () => compileInDatabase(sha256InNode, database, contract, tokeniser)));
    const p50 = percentile(
      compiles.map((timing) => timing.wallMs),
      50,
    );
    // A compiler that lives across compiles, as a service's does: its recompile after the change uses its last answer.
    const lasting = createDatabaseCompiler(sha256InNode, database, tokeniser);
    expectOk(await lasting.compile(contract));
    const reloadOne = await time(async () => load('changed.jsonl'));
    const recompile = await time(async () => lasting.compile(contract));
    const upsertOne = await time(async () => load('one.jsonl', 'upsert'));
    const compileP50 = compiles.find((timing) => timing.wallMs === p50) ?? recompile;
    const scoped = contractSchema.parse({ ...benchContract(requiredIds), scopes: [SCOPED.scope], requiredRecords: [] });
    const middleOf = async (work: () => Promise<Result<unknown, CompileError>>) => {
      const timings: Timing[] = [];
      for (let run = 0; run < runs; run += 1) timings.push(await time(work));
      const middle = percentile(
        timings.map((timing) => timing.wallMs),
        50,
      );
      return timings.find((timing) => timing.wallMs === middle) ?? (timings[0] as Timing);
    };
    const answers = (answered: Contract) => middleOf(async () => answerInDatabase(database, answered, tokeniser));
    const scopedAdmitted = expectOk(await answerInDatabase(database, scoped, tokeniser)).admitted;
    return {
      records: size,
      load: loaded,
      compileP50,
      reloadOne,
      recompile,
      upsertOne,
      answerP50: await answers(contract),
      scopedAnswerP50: await answers(scoped),
      scopedCompileP50: await middleOf(async () => compileInDatabase(sha256InNode, database, scoped, tokeniser)),
      scopedAdmitted,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`).catch(() => undefined);
    await database.end();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '100000,1000000' },
      runs: { type: 'string', default: '3' },
      child: { type: 'string' },
      folder: { type: 'string' },
      required: { type: 'string' },
    },
  });
  const runs = Number(values.runs);
  if (values.child !== undefined) {
    process.send?.(await measure(Number(values.child), runs, values.folder ?? '', (values.required ?? '').split(',')));
    return;
  }
  const sizes = values.sizes.split(',').map(Number);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1) || !Number.isInteger(runs) || runs < 1)
    throw new Error(`sizes and runs must be positive integers\n${USAGE}`);
  const results: SizeResult[] = [];
  for (const size of sizes) {
    const folder = mkdtempSync(join(tmpdir(), 'bench-postgres-'));
    const result = await writeCorpus(size, folder)
      .then(async (requiredIds) => {
        const args = [
          '--child',
          String(size),
          '--runs',
          String(runs),
          '--folder',
          folder,
          '--required',
          requiredIds.join(','),
        ];
        const child = fork(fileURLToPath(import.meta.url), args, {
          execArgv: ['--import', 'tsx', '--max-old-space-size=8192'],
        });
        return new Promise<SizeResult>((resolve, reject) => {
          child.on('message', (message) => resolve(message as SizeResult));
          child.on('exit', (code) =>
            code === 0 ? undefined : reject(new Error(`the ${size}-record run exited with ${code}`)),
          );
        });
      })
      .finally(() => rmSync(folder, { recursive: true, force: true }));
    // Each size as it finishes, so a larger size that fails or is stopped leaves the smaller ones' figures.
    console.log(JSON.stringify({ ...result, loadAverage: readFileSync('/proc/loadavg', 'utf8').trim() }));
    results.push(result);
  }
  const seconds = (value: number) => (value / 1000).toFixed(2);
  const timing = (t: Timing) => `${seconds(t.wallMs)} s (CPU ${seconds(t.cpuMs)} + server ${seconds(t.serverCpuMs)})`;
  console.log(
    formatTable(
      [
        'records',
        'load',
        'compile p50',
        'reload 1 changed',
        'recompile',
        'upsert 1',
        'answer p50',
        'scoped answer p50 (admitted)',
        'scoped compile p50',
        'peak RSS',
      ],
      results.map((r) => [
        String(r.records),
        timing(r.load),
        timing(r.compileP50),
        timing(r.reloadOne),
        timing(r.recompile),
        timing(r.upsertOne),
        timing(r.answerP50),
        `${timing(r.scopedAnswerP50)} (${r.scopedAdmitted})`,
        timing(r.scopedCompileP50),
        `${r.peakRssMb.toFixed(0)} MB`,
      ]),
    ),
  );
  const [first, last] = [results[0], results[results.length - 1]];
  if (first && last && first !== last) {
    const growth = (pick: (r: SizeResult) => number) =>
      growthExponent(first.records, pick(first), last.records, pick(last)).toFixed(2);
    // The scoped contract admits about as many records at every size: what the larger corpus adds is refused records.
    const perMillion = (pick: (t: Timing) => number) =>
      ((pick(last.scopedCompileP50) - pick(first.scopedCompileP50)) * 1_000_000) / (last.records - first.records);
    console.log(
      `added cost of 1,000,000 refused records (scoped compile, ${first.records} -> ${last.records}): wall ` +
        `${seconds(perMillion((t) => t.wallMs))} s, CPU ${seconds(perMillion((t) => t.cpuMs))} + server ` +
        `${seconds(perMillion((t) => t.serverCpuMs))} s`,
    );
    console.log(
      `growth exponent ${first.records} -> ${last.records} (wall): load ${growth((r) => r.load.wallMs)}, compile ${growth((r) => r.compileP50.wallMs)}, recompile ${growth((r) => r.recompile.wallMs)}, answer ${growth((r) => r.answerP50.wallMs)}, scoped answer ${growth((r) => r.scopedAnswerP50.wallMs)}, scoped compile ${growth((r) => r.scopedCompileP50.wallMs)}, RSS ${growth((r) => r.peakRssMb)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
