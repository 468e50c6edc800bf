import { sha256InNode } from '../src/lib/node-sha256';
import '../src/shared/jitless-zod';
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSqliteCompiler, type SqliteCompiler } from '../src/adapters/sqlite/compiler';
import { applyChanges } from '../src/core/controls';
import { contractSchema, type Contract } from '../src/core/format/contract';
import { admit } from '../src/core/phases/4-admit/admit';
import { attest, renderPacket, serialiseReceipt } from '../src/core/phases/7-attest/attest';
import { lowerAdmission } from '../src/adapters/sqlite/compiler';
import { planPacket } from '../src/core/phases/6-plan-packet/plan-packet';
import { buildAdmissionPlan, planDigest } from '../src/core/phases/4-admit/admission-plan';
import { resolve } from '../src/core/phases/2-resolve/resolve';
import { typeCheck } from '../src/core/phases/3-type-check/type-check';
import { createJsonlRecordReader, type RecordSet } from '../src/core/phases/1-validate/validate';
import type { CompileOutcome } from '../src/core/result';
import type { SqlDriver } from '../src/adapters/sqlite/driver';
import { rankAdmitted, rankCorpus } from '../src/adapters/sqlite/fts5-rank';
import { openInMemoryDatabase } from '../src/sqlite/load-sqlite';
import { SQLITE_ADAPTER_VERSION } from '../src/adapters/sqlite/compiler';
import { benchContract, benchControl } from './generate-records';
import { percentile } from './stats';

export interface Latency {
  readonly p50: number;
  readonly p95: number;
  readonly min: number;
  /** Median CPU time of this process over the same runs: less disturbed than wall time on a shared machine. */
  readonly cpuP50: number;
  readonly runs: number;
}

interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
}

/** A corpus written by the runner: the JSONL file and the ids its contract requires. */
export interface CorpusFile {
  readonly path: string;
  readonly requiredIds: readonly string[];
}

export interface SizeResult {
  readonly size: number;
  readonly seed: number;
  readonly jsonlBytes: number;
  /**
   * The file streamed through the JSONL reader: JSON, zod, duplicate ids, content hash and fingerprint of every record.
   */
  readonly parse: {
    readonly ms: number;
    readonly cpuMs: number;
    readonly recordsPerSecond: number;
    readonly megabytesPerSecond: number;
  };
  readonly sqliteLoadMs: number;
  /** The records' rows (what admission reads): `compiler.index`. */
  readonly indexMs: number;
  readonly indexCpuMs: number;
  /** The first compile on a fresh database: admission over every row and the admitted-set text index built. */
  readonly firstCompileMs: number;
  /** Parse + index + first compile: from a file to the compiled packet, with no whole-corpus text index. */
  readonly firstPacketMs: number;
  /** A new compiler on the indexed database (the admitted-set index in step): nothing in memory to reuse. */
  readonly coldCompile: Latency;
  readonly compile: Latency;
  /** Where cold compile time goes: median CPU ms of each pass called from scratch, in compile's order. */
  readonly phases: Readonly<Record<string, number>>;
  /** The whole-corpus text index the baselines need, built after the first packet. */
  readonly corpusIndexMs: number;
  readonly corpusIndexCpuMs: number;
  readonly naive: Latency;
  readonly postFilter: Latency;
  /**
   * One record put under investigation and back, each step re-indexing that record alone:
   * `admissionChange` toggles a packet entry (it leaves the admitted set and returns);
   * `noAdmissionChange` toggles a record no gate admits (the admitted set stays as it was).
   */
  readonly toggle: { readonly admissionChange: Latency; readonly noAdmissionChange: Latency };
  /** A different query each run: the admitted-set ranking is computed again; verdicts are reused. */
  readonly recompileAfterQueryChange: Latency;
  /** A denied label added or removed each run: every verdict and the SQL admission are computed again. */
  readonly recompileAfterGateChange: Latency;
  /** What one toggle re-indexed: must be one updated record, nothing inserted or deleted. */
  readonly toggleSync: { readonly inserted: number; readonly updated: number; readonly deleted: number };
  readonly memory: {
    readonly peakRssMb: number;
    /**
     * Peak RSS after what a session does (parse, index, compile, baselines, toggles, a query and a gate change), before
     * the benchmark's extra cold compilers.
     */
    readonly sessionPeakRssMb: number;
    readonly peakHeapUsedMb: number;
    readonly peakExternalMb: number;
    /** Heap after 200 toggles minus heap after 10, each after a full garbage collection. */
    readonly toggleHeapGrowthMb: number;
  };
  readonly receipt: { readonly bytes: number; readonly receiptId: string; readonly sha256: string };
  readonly counts: CompileOutcome['counts'];
  readonly status: CompileOutcome['status'];
}

const MB = 1024 * 1024;
/** Words appended to the benchmark query, one per run, so each run ranks a query the last run did not. */
const QUERY_VARIANTS = ['covenant', 'ledger', 'notice', 'hardship', 'overdue', 'dispute', 'refund', 'escalation'];
const HEAP_TOGGLES = { warm: 10, total: 200 };
const COLD_RUNS = 5;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function summarise(samples: readonly Sample[]): Latency {
  const wall = samples.map((sample) => sample.ms);
  return {
    p50: percentile(wall, 50),
    p95: percentile(wall, 95),
    min: wall.reduce((min, value) => Math.min(min, value), Number.POSITIVE_INFINITY),
    cpuP50: percentile(
      samples.map((sample) => sample.cpuMs),
      50,
    ),
    runs: samples.length,
  };
}

function timed<T>(work: () => T): { value: T } & Sample {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const value = work();
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { value, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function timedAsync<T>(work: () => Promise<T>): Promise<{ value: T } & Sample> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { value, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function orThrow<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Streams the file through the core's reader, as the app streams a dropped file. */
async function readCorpus(path: string): Promise<RecordSet> {
  const reader = createJsonlRecordReader(sha256InNode, path);
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 }))
    reader.push(chunk as string);
  return orThrow(reader.finish());
}

/**
 * The passes one after another with nothing to reuse (each a plain function), timed one by one: where a cold compile
 * goes.
 */
function measurePhases(
  driver: SqlDriver,
  contract: Contract,
  recordSet: RecordSet,
  runs: number,
): Record<string, number> {
  const samples = new Map<string, number[]>();
  const phase = <T>(name: string, work: () => T): T => {
    const { value, cpuMs } = timed(work);
    samples.set(name, [...(samples.get(name) ?? []), cpuMs]);
    return value;
  };
  // What the record index keeps for the ranking: which record each row holds.
  const idByRowid = new Map(
    driver.all('SELECT rowid, id FROM records').map(([rowid, id]) => [Number(rowid), String(id)]),
  );
  for (let run = 0; run < runs; run += 1) {
    const resolution = phase('resolve', () => orThrow(resolve(contract, recordSet)));
    phase('type-check', () => typeCheck(resolution));
    const admissionPlan = buildAdmissionPlan(resolution.contract, resolution.brokenLinks);
    const lowered = orThrow(
      lowerAdmission(admissionPlan, planDigest(sha256InNode, admissionPlan), driver.maxParameters),
    );
    const sql = phase(
      'admit (SQL, every row)',
      () =>
        new Set(
          driver.all(`SELECT r.id FROM records r WHERE ${lowered.where}`, lowered.params).map(([id]) => String(id)),
        ),
    );
    const admission = phase('admit (evaluator, every record)', () => orThrow(admit(resolution, sql)));
    const ranking = phase('rank (admitted set)', () =>
      rankAdmitted(driver, contract.query, (rowid) => idByRowid.get(rowid)),
    );
    const planned = phase('plan', () => planPacket(resolution, admission, ranking, null));
    const packet = phase('render', () => renderPacket(contract, resolution.contract.asOf, planned));
    phase('attest', () =>
      attest(sha256InNode, {
        contract,
        records: resolution.records,
        admitted: admission.admitted,
        attestation: 'full',
        packetPlan: planned,
        packet,
        ranking: ranking.statistics,
        admission: { adapter: 'sqlite', adapterVersion: SQLITE_ADAPTER_VERSION, planDigest: lowered.digest },
        controls: [],
        lateChanges: [],
      }),
    );
  }
  return Object.fromEntries([...samples].map(([name, values]) => [name, percentile(values, 50)]));
}

function describeReceiptFile(receipt: CompileOutcome['receipt']): SizeResult['receipt'] {
  const serialised = serialiseReceipt(receipt);
  return {
    bytes: Buffer.byteLength(serialised, 'utf8'),
    receiptId: receipt.receiptId,
    sha256: createHash('sha256').update(serialised).digest('hex'),
  };
}

/** Measures one corpus size end to end in this process (the runner gives each size a fresh process). */
export async function measureSize(corpus: CorpusFile, size: number, runs: number, seed: number): Promise<SizeResult> {
  const peak = { heapUsed: 0, external: 0 };
  const sampleMemory = () => {
    const usage = process.memoryUsage();
    peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
    peak.external = Math.max(peak.external, usage.external);
  };
  const jsonlBytes = statSync(corpus.path).size;
  const contract = contractSchema.parse(benchContract(corpus.requiredIds));

  const firstPacketStart = performance.now();
  const parsed = await timedAsync(() => readCorpus(corpus.path));
  const recordSet = parsed.value;
  if (recordSet.records.length !== size) throw new Error(`read ${recordSet.records.length} of ${size} records`);
  sampleMemory();
  const loaded = await timedAsync(() => openInMemoryDatabase());
  const driver = loaded.value;
  let compiler: SqliteCompiler = createSqliteCompiler(sha256InNode, driver);
  const indexed = timed(() => compiler.index(recordSet));
  if (indexed.value.inserted !== size) throw new Error(`indexed ${indexed.value.inserted} of ${size} records`);
  const first = await timedAsync(async () => orThrow(await compiler.compile({ contract, recordSet })));
  const firstPacketMs = performance.now() - firstPacketStart - loaded.ms;
  const outcome = first.value;
  sampleMemory();

  // Measured now, so 30 MB of receipt text is not held through the rest of the run.
  const receiptFile = describeReceiptFile(outcome.receipt);
  if (orThrow(await compiler.compile({ contract, recordSet })).receipt.receiptId !== outcome.receipt.receiptId)
    throw new Error('compile is not deterministic');

  // What a user's session does first (file, packet, baselines, toggles, edits), so that the peak
  // memory up to here is the product's; the cold compilers and passes from scratch below are the
  // benchmark's own extra work.
  const corpusIndexed = timed(() => compiler.indexCorpus(recordSet));
  const naiveSamples: Sample[] = [];
  const postFilterSamples: Sample[] = [];
  for (let run = 0; run < runs; run += 1) {
    naiveSamples.push(timed(() => rankCorpus(driver, contract.query, contract.ranking, contract.naiveTopK)));
    postFilterSamples.push(
      timed(() =>
        rankCorpus(driver, contract.query, contract.ranking, contract.naiveTopK).filter((row) =>
          outcome.admitted.has(row.id),
        ),
      ),
    );
  }
  sampleMemory();

  const requiredIds = new Set(corpus.requiredIds);
  const entering =
    outcome.status === 'packet' ? outcome.packet.entries.find((entry) => !requiredIds.has(entry.id))?.id : undefined;
  if (entering === undefined) throw new Error('the benchmark packet selected no optional record to toggle');
  const outside = recordSet.records.find((record) => !outcome.admitted.has(record.id))?.id;
  if (outside === undefined) throw new Error('the benchmark corpus has no record outside the admitted set to toggle');
  let toggleSync = { inserted: 0, updated: 0, deleted: 0 };
  /** Alternates on and off from `run`: each step changes exactly one record against the index. */
  const toggle = (target: string, run: number) => {
    const control = benchControl(target);
    const on = run % 2 === 0;
    return timedAsync(async () => {
      const changed = on
        ? orThrow(applyChanges(sha256InNode, contract, recordSet, [control]))
        : { contract, recordSet };
      const sync = compiler.index(changed.recordSet);
      const result = orThrow(await compiler.compile({ ...changed, controls: on ? [control.id] : [] }));
      if (on && target === entering && result.trace.find((row) => row.id === target)?.code !== 'EXCLUDE_DENY_LABEL')
        throw new Error('the toggle did not exclude its record');
      if (target === outside && result.admitted.has(target))
        throw new Error('a toggle admitted a record no gate admits');
      const admittedAfter = target === entering && on ? outcome.counts.admitted - 1 : outcome.counts.admitted;
      if (result.counts.admitted !== admittedAfter)
        throw new Error(`a toggle of ${target} admitted ${result.counts.admitted}, not ${admittedAfter}`);
      toggleSync = sync;
      if (sync.updated !== 1 || sync.inserted !== 0 || sync.deleted !== 0)
        throw new Error(`a toggle re-indexed ${JSON.stringify(sync)}`);
    });
  };
  const toggleLatency = async (target: string): Promise<Latency> => {
    const samples: Sample[] = [];
    // An even number of steps, so the record ends as it began.
    for (let run = 0; run < runs + (runs % 2); run += 1) {
      samples.push(await toggle(target, run));
      sampleMemory();
    }
    return summarise(samples);
  };
  const toggleLatencies = {
    admissionChange: await toggleLatency(entering),
    noAdmissionChange: await toggleLatency(outside),
  };

  // Flat memory: the heap after many toggles is the heap after a few, once garbage is collected.
  const heapAfter = () => {
    collectGarbage();
    collectGarbage();
    return process.memoryUsage().heapUsed;
  };
  for (let run = 0; run < HEAP_TOGGLES.warm; run += 1) await toggle(entering, run);
  const heapWarm = heapAfter();
  for (let run = HEAP_TOGGLES.warm; run < HEAP_TOGGLES.total; run += 1) await toggle(entering, run);
  const toggleHeapGrowthMb = (heapAfter() - heapWarm) / MB;
  sampleMemory();

  // Each run compiles inputs that differ from the previous run's, so nothing is answered from the last compilation.
  const alternating = async (variant: (run: number) => Contract): Promise<Latency> => {
    const samples: Sample[] = [];
    for (let run = 0; run < runs; run += 1) {
      const changed = variant(run);
      const { ms, cpuMs } = await timedAsync(async () =>
        orThrow(await compiler.compile({ contract: changed, recordSet })),
      );
      samples.push({ ms, cpuMs });
      sampleMemory();
    }
    orThrow(await compiler.compile({ contract, recordSet }));
    return summarise(samples);
  };
  const recompileAfterQueryChange = await alternating((run) => ({
    ...contract,
    query: `${contract.query} ${QUERY_VARIANTS[run % QUERY_VARIANTS.length] ?? ''}`,
  }));
  const recompileAfterGateChange = await alternating((run) => ({
    ...contract,
    denyLabels: run % 2 === 0 ? [...contract.denyLabels, 'legal_hold'] : contract.denyLabels,
  }));
  const sessionPeakRssMb = (process.resourceUsage().maxRSS * 1024) / MB;

  const coldSamples: Sample[] = [];
  for (let run = 0; run < COLD_RUNS; run += 1) {
    const cold = await timedAsync(async () => {
      compiler = createSqliteCompiler(sha256InNode, driver);
      return orThrow(await compiler.compile({ contract, recordSet }));
    });
    if (cold.value.receipt.receiptId !== outcome.receipt.receiptId)
      throw new Error('a new compiler on the same database compiled another receipt');
    coldSamples.push({ ms: cold.ms, cpuMs: cold.cpuMs });
    sampleMemory();
  }

  const compileSamples: Sample[] = [];
  for (let run = 0; run < runs; run += 1) {
    const { ms, cpuMs } = await timedAsync(async () => orThrow(await compiler.compile({ contract, recordSet })));
    compileSamples.push({ ms, cpuMs });
    sampleMemory();
  }

  const phases = measurePhases(driver, contract, recordSet, Math.min(runs, 5));

  return {
    size,
    seed,
    jsonlBytes,
    parse: {
      ms: parsed.ms,
      cpuMs: parsed.cpuMs,
      recordsPerSecond: size / (parsed.ms / 1000),
      megabytesPerSecond: jsonlBytes / MB / (parsed.ms / 1000),
    },
    sqliteLoadMs: loaded.ms,
    indexMs: indexed.ms,
    indexCpuMs: indexed.cpuMs,
    firstCompileMs: first.ms,
    firstPacketMs,
    coldCompile: summarise(coldSamples),
    compile: summarise(compileSamples),
    phases,
    corpusIndexMs: corpusIndexed.ms,
    corpusIndexCpuMs: corpusIndexed.cpuMs,
    naive: summarise(naiveSamples),
    postFilter: summarise(postFilterSamples),
    toggle: toggleLatencies,
    recompileAfterQueryChange,
    recompileAfterGateChange,
    toggleSync,
    memory: {
      peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
      sessionPeakRssMb,
      peakHeapUsedMb: peak.heapUsed / MB,
      peakExternalMb: peak.external / MB,
      toggleHeapGrowthMb,
    },
    receipt: receiptFile,
    counts: outcome.counts,
    status: outcome.status,
  };
}

export function readCorpusFile(metaPath: string): CorpusFile {
  return JSON.parse(readFileSync(metaPath, 'utf8')) as CorpusFile;
}
