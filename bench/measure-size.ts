import '../src/shared/jitless-zod';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createCompiler } from '../src/core/compile';
import { applyChanges } from '../src/core/controls';
import { contractSchema } from '../src/core/format/contract';
import { admit } from '../src/core/passes/admit';
import { attest, renderPacket, serialiseReceipt } from '../src/core/passes/attest';
import { plan } from '../src/core/passes/plan';
import { resolve } from '../src/core/passes/resolve';
import { typeCheck } from '../src/core/passes/type-check';
import { createJsonlRecordReader } from '../src/core/passes/validate';
import type { CompileOutcome } from '../src/core/result';
import { rankRecords } from '../src/core/search/rank';
import { openInMemoryDatabase } from '../src/sqlite/load-sqlite';
import { benchContract, benchControl, generateRecords, toJsonl } from './generate-records';
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

export interface SizeResult {
  readonly size: number;
  readonly seed: number;
  readonly jsonlBytes: number;
  /** Median of `runs` parses of the whole file (the first includes the JIT's warm-up), wall and CPU. */
  readonly parse: { readonly ms: number; readonly cpuMs: number; readonly firstMs: number; readonly recordsPerSecond: number; readonly megabytesPerSecond: number };
  readonly sqliteLoadMs: number;
  readonly indexMs: number;
  readonly indexCpuMs: number;
  readonly firstCompileMs: number;
  readonly compile: Latency;
  /** Where compile time goes: median CPU ms of each exported pass, called in compile's order. */
  readonly phases: Readonly<Record<string, number>>;
  readonly naive: Latency;
  readonly postFilter: Latency;
  readonly recompileAfterToggle: Latency;
  /** A different query each run: the full ranking is recomputed; verdicts and the SQL-admitted ids are reused. */
  readonly recompileAfterQueryChange: Latency;
  /** A denied label added or removed each run: every verdict and the SQL admission are recomputed. */
  readonly recompileAfterGateChange: Latency;
  /** What one toggle re-indexed: must be one updated record, nothing inserted or deleted. */
  readonly toggleSync: { readonly inserted: number; readonly updated: number; readonly deleted: number };
  readonly memory: { readonly peakRssMb: number; readonly peakHeapUsedMb: number; readonly peakExternalMb: number };
  readonly receipt: { readonly bytes: number; readonly receiptId: string; readonly sha256: string };
  readonly counts: CompileOutcome['counts'];
  readonly status: CompileOutcome['status'];
}

const MB = 1024 * 1024;
/** Words appended to the benchmark query, one per run, so each run ranks a query the last run did not. */
const QUERY_VARIANTS = ['covenant', 'ledger', 'notice', 'hardship', 'overdue', 'dispute', 'refund', 'escalation'];
const CHUNK_CHARS = 1 << 16;

function summarise(samples: readonly Sample[]): Latency {
  const wall = samples.map((sample) => sample.ms);
  return {
    p50: percentile(wall, 50),
    p95: percentile(wall, 95),
    min: wall.reduce((least, ms) => Math.min(least, ms), Number.POSITIVE_INFINITY),
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

function orThrow<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Measures one corpus size end to end in this process (the runner gives each size a fresh process). */
export async function measureSize(size: number, runs: number, seed: number): Promise<SizeResult> {
  const peak = { heapUsed: 0, external: 0 };
  const sampleMemory = () => {
    const usage = process.memoryUsage();
    peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
    peak.external = Math.max(peak.external, usage.external);
  };

  const corpus = generateRecords(size, seed);
  const jsonl = toJsonl(corpus.records);
  const jsonlBytes = Buffer.byteLength(jsonl, 'utf8');
  sampleMemory();

  const parseOnce = () =>
    timed(() => {
      const reader = createJsonlRecordReader('bench.jsonl');
      for (let offset = 0; offset < jsonl.length; offset += CHUNK_CHARS) reader.push(jsonl.slice(offset, offset + CHUNK_CHARS));
      return orThrow(reader.finish());
    });
  const firstParse = parseOnce();
  const parseSamples: Sample[] = [firstParse];
  let parsed = firstParse;
  // Parsing is measured like compiling, over several runs: one sample on a shared machine is mostly noise.
  for (let run = 1; run < runs; run += 1) {
    parsed = parseOnce();
    parseSamples.push(parsed);
  }
  const parseLatency = summarise(parseSamples);
  const recordSet = parsed.value;
  sampleMemory();

  const loaded = await (async () => {
    const start = performance.now();
    const driver = await openInMemoryDatabase();
    return { driver, ms: performance.now() - start };
  })();
  const { driver } = loaded;
  const compiler = createCompiler(driver);
  const indexed = timed(() => compiler.index(recordSet));
  if (indexed.value.inserted !== size) throw new Error(`indexed ${indexed.value.inserted} of ${size} records`);
  sampleMemory();

  const contract = contractSchema.parse(benchContract(corpus.requiredIds));
  const compileOnce = () => orThrow(compiler.compile({ contract, recordSet }));
  const first = timed(compileOnce);
  const outcome = first.value;
  sampleMemory();

  const compileSamples: Sample[] = [];
  for (let run = 0; run < runs; run += 1) {
    compileSamples.push(timed(compileOnce));
    sampleMemory();
  }
  const serialised = serialiseReceipt(outcome.receipt);
  for (let run = 0; run < 2; run += 1) {
    if (orThrow(compiler.compile({ contract, recordSet })).receipt.receiptId !== outcome.receipt.receiptId) throw new Error('compile is not deterministic');
  }

  const phaseSamples = new Map<string, number[]>();
  const phase = <T>(name: string, work: () => T): T => {
    const { value, cpuMs } = timed(work);
    phaseSamples.set(name, [...(phaseSamples.get(name) ?? []), cpuMs]);
    return value;
  };
  let admitted: ReadonlySet<string> = new Set();
  for (let run = 0; run < runs; run += 1) {
    phase('sync', () => compiler.index(recordSet));
    const resolution = phase('resolve', () => orThrow(resolve(contract, recordSet)));
    phase('type-check', () => typeCheck(resolution));
    const admission = phase('admit', () => orThrow(admit(resolution, driver)));
    admitted = admission.admitted;
    const ranked = phase('rank', () => rankRecords(driver, contract.query, contract.ranking, null));
    const planned = phase('plan', () => plan(resolution, admission, ranked, null));
    const packet = phase('render', () => renderPacket(contract, planned));
    const records = resolution.records.map((item) => item.record);
    phase('attest', () => attest({ contract, records, plan: planned, packet, controls: [], lateChanges: [] }));
  }
  const phases = Object.fromEntries([...phaseSamples].map(([name, samples]) => [name, percentile(samples, 50)]));

  const naiveSamples: Sample[] = [];
  const postFilterSamples: Sample[] = [];
  for (let run = 0; run < runs; run += 1) {
    naiveSamples.push(timed(() => rankRecords(driver, contract.query, contract.ranking, contract.naiveTopK)));
    postFilterSamples.push(timed(() => rankRecords(driver, contract.query, contract.ranking, contract.naiveTopK).filter((row) => admitted.has(row.id))));
  }

  const requiredIds = new Set(corpus.requiredIds);
  const target = outcome.status === 'packet' ? outcome.packet.entries.find((entry) => !requiredIds.has(entry.id))?.id : undefined;
  if (target === undefined) throw new Error('the benchmark packet selected no optional record to toggle');
  const control = benchControl(target);
  const toggleSamples: Sample[] = [];
  let toggleSync = { inserted: 0, updated: 0, deleted: 0 };
  for (let run = 0; run < runs; run += 1) {
    // Alternate on and off: each step changes exactly one record object against the index.
    const on = run % 2 === 0;
    const step = timed(() => {
      const changed = on ? orThrow(applyChanges(contract, recordSet, [control])) : { contract, recordSet };
      const sync = compiler.index(changed.recordSet);
      const result = orThrow(compiler.compile({ ...changed, controls: on ? [control.id] : [] }));
      return { sync, result };
    });
    toggleSamples.push(step);
    const { inserted, updated, deleted } = step.value.sync;
    toggleSync = { inserted, updated, deleted };
    if (toggleSync.updated !== 1 || toggleSync.inserted !== 0 || toggleSync.deleted !== 0) throw new Error(`a toggle re-indexed ${JSON.stringify(toggleSync)}`);
    if (on && step.value.result.trace.find((row) => row.id === target)?.code !== 'EXCLUDE_DENY_LABEL') throw new Error('the toggle did not exclude its record');
    sampleMemory();
  }

  // Each run compiles inputs that differ from the previous run's, so nothing is answered from the last compilation.
  const alternating = (variant: (run: number) => typeof contract): Latency => {
    const samples: Sample[] = [];
    for (let run = 0; run < runs; run += 1) {
      const changed = variant(run);
      samples.push(timed(() => orThrow(compiler.compile({ contract: changed, recordSet }))));
      sampleMemory();
    }
    orThrow(compiler.compile({ contract, recordSet }));
    return summarise(samples);
  };
  const recompileAfterQueryChange = alternating((run) => ({ ...contract, query: `${contract.query} ${QUERY_VARIANTS[run % QUERY_VARIANTS.length] ?? ''}` }));
  const recompileAfterGateChange = alternating((run) => ({ ...contract, denyLabels: run % 2 === 0 ? [...contract.denyLabels, 'legal_hold'] : contract.denyLabels }));

  return {
    size,
    seed,
    jsonlBytes,
    parse: {
      ms: parseLatency.p50,
      cpuMs: parseLatency.cpuP50,
      firstMs: firstParse.ms,
      recordsPerSecond: size / (parseLatency.p50 / 1000),
      megabytesPerSecond: jsonlBytes / MB / (parseLatency.p50 / 1000),
    },
    sqliteLoadMs: loaded.ms,
    indexMs: indexed.ms,
    indexCpuMs: indexed.cpuMs,
    firstCompileMs: first.ms,
    compile: summarise(compileSamples),
    phases,
    naive: summarise(naiveSamples),
    postFilter: summarise(postFilterSamples),
    recompileAfterToggle: summarise(toggleSamples),
    recompileAfterQueryChange,
    recompileAfterGateChange,
    toggleSync,
    memory: { peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB, peakHeapUsedMb: peak.heapUsed / MB, peakExternalMb: peak.external / MB },
    receipt: { bytes: Buffer.byteLength(serialised, 'utf8'), receiptId: outcome.receipt.receiptId, sha256: createHash('sha256').update(serialised).digest('hex') },
    counts: outcome.counts,
    status: outcome.status,
  };
}
