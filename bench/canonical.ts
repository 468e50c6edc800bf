import '../src/shared/jitless-zod';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { canonicalJson } from '../src/core/canonical';
import { contentHashOf, fingerprintForm } from '../src/core/fingerprints';
import { parseRecordsJsonl } from '../src/core/phases/1-validate/validate';
import { generateRecords, toJsonl } from './generate-records';
import { formatTable, percentile } from './stats';
import { sha256InNode } from '../src/lib/node-sha256';

/**
 * `npx tsx bench/canonical.ts [--records 100000 --runs 7 --seed 42]`
 * Times canonical JSON on its two hot paths, the previous implementation against the current one in the
 * same process, alternating which goes first: every record's fingerprint input (what `recordFingerprint`
 * hashes) and a receipt-shaped document with one trace row per record (what `serialiseReceipt` writes).
 * Ratios from one process are steadier than two separate benchmark runs on a shared machine.
 */

/** The implementation before RFC 8785 was checked (commit c2b364e), kept only to be measured against. */
function previousCanonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON cannot carry a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value))
    return `[${value.map((item) => previousCanonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${previousCanonicalJson(item)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot carry a ${typeof value}`);
}

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '7' },
    seed: { type: 'string', default: '42' },
  },
});
const size = Number(values.records);
const runs = Number(values.runs);

const parsed = parseRecordsJsonl(
  sha256InNode,
  'bench.jsonl',
  toJsonl(generateRecords(size, Number(values.seed)).records),
);
if (!parsed.ok) throw new Error(parsed.error.message);
const records = parsed.value.records;

/** What `recordFingerprint` hands to canonical JSON (the core's own form). */
const inputs = records.map((record) => fingerprintForm(record, contentHashOf(sha256InNode, record.text)));
/** A receipt of schema 3's shape (src/core/format/receipt.ts) with one trace row per record. */
const receipt = {
  receiptId: '0'.repeat(64),
  schemaVersion: 'context-compiler/3',
  outcome: 'packet',
  selected: records.slice(0, 20).map((record) => record.id),
  trace: records.map((record, index) => ({
    id: record.id,
    fingerprint: '0123456789abcdef'.repeat(4),
    decision: index % 7 === 0 ? 'selected' : 'excluded',
    code: index % 7 === 0 ? 'SELECTED_RANKED' : 'EXCLUDE_SCOPE',
    fact: index % 7 === 0 ? 'RANKED_WITHIN_BUDGET' : 'SCOPE_NOT_ALLOWED',
    args: index % 7 === 0 ? { used: index, budget: 900 } : { scope: record.scope },
    gates: index % 7 === 0 ? [] : ['scope'],
    tokens: record.tokens,
    required: false,
    score: index % 3 === 0 ? null : -index / 997,
    rank: index % 3 === 0 ? null : index,
  })),
};

type Canonical = (value: unknown) => string;
const workloads: readonly { name: string; run: (canonical: Canonical) => number }[] = [
  {
    name: `${size.toLocaleString('en-US')} fingerprint inputs`,
    run: (canonical) => {
      let bytes = 0;
      for (const input of inputs) bytes += canonical(input).length;
      return bytes;
    },
  },
  { name: `receipt, ${size.toLocaleString('en-US')} trace rows`, run: (canonical) => canonical(receipt).length },
];

const timed = (work: () => number) => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = work();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, wall, cpu: (used.user + used.system) / 1000 };
};

const rows: string[][] = [];
for (const workload of workloads) {
  // Same bytes from both, or the comparison means nothing.
  if (workload.run(previousCanonicalJson) !== workload.run(canonicalJson))
    throw new Error(`${workload.name}: the two implementations disagree`);
  const samples = {
    previous: { wall: [] as number[], cpu: [] as number[] },
    current: { wall: [] as number[], cpu: [] as number[] },
  };
  const ratios: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const order = run % 2 === 0 ? (['previous', 'current'] as const) : (['current', 'previous'] as const);
    const pair: Record<string, number> = {};
    for (const which of order) {
      const sample = timed(() => workload.run(which === 'previous' ? previousCanonicalJson : canonicalJson));
      samples[which].wall.push(sample.wall);
      samples[which].cpu.push(sample.cpu);
      pair[which] = sample.cpu;
    }
    ratios.push((pair.current ?? 0) / (pair.previous ?? 1));
  }
  const median = (sample: number[]) => percentile(sample, 50).toFixed(1);
  rows.push([
    workload.name,
    median(samples.previous.wall),
    median(samples.current.wall),
    median(samples.previous.cpu),
    median(samples.current.cpu),
    percentile(ratios, 50).toFixed(2),
  ]);
}
process.stdout.write(
  `${formatTable(['workload', 'previous wall ms', 'current wall ms', 'previous CPU ms', 'current CPU ms', 'CPU ratio (median of pairs)'], rows)}\n\n${runs} alternating runs each, Node ${process.version}\n`,
);
