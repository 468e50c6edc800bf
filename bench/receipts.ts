import '../src/shared/jitless-zod';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createSqliteCompiler } from '../src/adapters/sqlite/compiler';
import { drill } from '../src/core/drill';
import { contractSchema } from '../src/core/format/contract';
import { receiptIdOf, serialiseReceipt } from '../src/core/phases/7-attest/attest';
import { parseRecordsJsonl } from '../src/core/phases/1-validate/validate';
import { parseReceiptJson } from '../src/core/phases/1-validate/validate-receipt';
import { diffReceipts } from '../src/core/receipt-diff';
import { renderDiffText } from '../src/core/receipt-diff-text';
import { openInMemoryDatabase } from '../src/sqlite/load-sqlite';
import { benchContract, generateRecords, toJsonl } from './generate-records';
import { formatTable, percentile } from './stats';
import { sha256InNode } from '../src/lib/node-sha256';

/**
 * `npx tsx bench/receipts.ts [--records 100000 --runs 5 --seed 42]`
 * What checking receipts costs at scale, in one process: reading a saved receipt back, the diff of two
 * compilations one day apart, the fire drill on a receipt that is current (compile and compare), on one
 * that is stale (compile, reperform its own inputs, diff) and on a forged one (one trace row edited,
 * id recomputed), and the same for a `candidates` receipt. Each figure is the median of the runs, wall
 * and CPU. It reports the size of both kinds of receipt: a `candidates` receipt must stay under 1 MB.
 */
const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    seed: { type: 'string', default: '42' },
  },
});
const size = Number(values.records);
const runs = Number(values.runs);

const corpus = generateRecords(size, Number(values.seed));
const parsed = parseRecordsJsonl(sha256InNode, 'bench.jsonl', toJsonl(corpus.records));
if (!parsed.ok) throw new Error(parsed.error.message);
const recordSet = parsed.value;
const contract = contractSchema.parse(benchContract(corpus.requiredIds));
const dayLater = { ...contract, asOf: new Date(Date.parse(contract.asOf) + 86_400_000).toISOString() };
const compiler = createSqliteCompiler(sha256InNode, await openInMemoryDatabase());
compiler.index(recordSet);

const compile = async (request: Parameters<typeof compiler.compile>[0]) => {
  const result = await compiler.compile(request);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.receipt;
};
const today = { contract, recordSet };
const tomorrow = { contract: dayLater, recordSet };
const prior = await compile(today);
const later = await compile(tomorrow);
const { receiptId: _id, ...body } = prior;
const edited = {
  ...body,
  trace: body.trace.map((row, index) =>
    index === Math.floor(body.trace.length / 2) ? { ...row, tokens: row.tokens + 1 } : row,
  ),
};
const forged = { receiptId: receiptIdOf(sha256InNode, edited), ...edited };
const text = serialiseReceipt(prior);
const candidates = { ...today, attestation: 'candidates' as const };
const priorCandidates = await compile(candidates);
const candidatesBytes = Buffer.byteLength(serialiseReceipt(priorCandidates));
const CANDIDATES_LIMIT_BYTES = 1024 * 1024;

const timed = async (work: () => unknown) => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
};

const workloads: readonly { name: string; run: () => unknown; check?: () => string | Promise<string> }[] = [
  { name: 'read a saved receipt (parse + schema)', run: () => parseReceiptJson('receipt.json', text) },
  {
    name: 'diff: today vs one day later',
    run: () => diffReceipts(prior, later),
    check: () => {
      const diff = diffReceipts(prior, later);
      return `${diff.decisions.length} decisions, ${diff.rows.length} other rows, ${renderDiffText(diff).split('\n').length} text lines`;
    },
  },
  {
    name: 'drill: current receipt',
    run: () => drill(compiler, { ...today, priorReceipt: prior, declaredChanges: [] }),
    check: async () => (await drill(compiler, { ...today, priorReceipt: prior, declaredChanges: [] })).code,
  },
  {
    name: 'drill: stale (one day later), reperformed',
    // The stale check compiles the current inputs, then the receipt's own: alternate so each run starts from the other.
    run: () => drill(compiler, { ...tomorrow, priorReceipt: prior, declaredChanges: [], declaredInputs: today }),
    check: async () =>
      (await drill(compiler, { ...tomorrow, priorReceipt: prior, declaredChanges: [], declaredInputs: today })).code,
  },
  {
    name: 'drill: current candidates receipt',
    run: () => drill(compiler, { ...candidates, priorReceipt: priorCandidates, declaredChanges: [] }),
    check: async () =>
      (await drill(compiler, { ...candidates, priorReceipt: priorCandidates, declaredChanges: [] })).code,
  },
  {
    name: 'drill: forged (one row edited)',
    run: () => drill(compiler, { ...today, priorReceipt: forged, declaredChanges: [] }),
    check: async () => (await drill(compiler, { ...today, priorReceipt: forged, declaredChanges: [] })).code,
  },
];

const rows: string[][] = [];
for (const workload of workloads) {
  const detail = (await workload.check?.()) ?? '';
  const samples: { wall: number; cpu: number }[] = [];
  for (let run = 0; run < runs; run += 1) {
    // Each drill run starts from the same compiler state: the last compilation is today's.
    await compile(today);
    samples.push(await timed(workload.run));
  }
  rows.push([
    workload.name,
    percentile(
      samples.map((sample) => sample.wall),
      50,
    ).toFixed(0),
    percentile(
      samples.map((sample) => sample.cpu),
      50,
    ).toFixed(0),
    detail,
  ]);
}
process.stdout.write(
  `${formatTable(['workload', 'wall p50 ms', 'CPU p50 ms', 'result'], rows)}\n\n${size.toLocaleString('en-US')} records, receipt ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MB, candidates receipt ${(candidatesBytes / 1024).toFixed(0)} KB (${candidatesBytes < CANDIDATES_LIMIT_BYTES ? 'under' : 'OVER'} the 1 MB limit), ${runs} runs, Node ${process.version}\n`,
);
if (candidatesBytes >= CANDIDATES_LIMIT_BYTES) process.exitCode = 1;
