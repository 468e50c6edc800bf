import { parseArgs } from 'node:util';
import { parseJsonText } from '../src/core/format/json-text';
import { createJsonlRecordReader } from '../src/core/phases/1-validate/validate';
import { generateRecords, toJsonl } from './generate-records';
import { percentile } from './stats';
import { sha256InNode } from '../src/lib/node-sha256';

/**
 * `npx tsx bench/json-text-overhead.ts [--size 100000] [--runs 7]`
 * What refusing duplicate keys costs on the JSONL hot path, measured in one process so that the shared
 * machine's noise hits both sides alike: JSON.parse alone against parseJsonText (JSON.parse plus the
 * key/colon walk) over the same lines, alternating, then the whole reader (JSON, zod, ids, hashes) for scale.
 */
const { values } = parseArgs({
  options: { size: { type: 'string', default: '100000' }, runs: { type: 'string', default: '7' } },
});
const size = Number(values.size);
const runs = Number(values.runs);
const lines = toJsonl(generateRecords(size, 42).records)
  .split('\n')
  .filter((line) => line !== '');

function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const plain: number[] = [];
const checked: number[] = [];
for (let run = 0; run < runs; run += 1) {
  plain.push(cpuMs(() => lines.forEach((line) => JSON.parse(line))));
  checked.push(
    cpuMs(() =>
      lines.forEach((line) => {
        if (!parseJsonText(line).ok) throw new Error('generated line refused');
      }),
    ),
  );
}
const reader = [] as number[];
for (let run = 0; run < Math.min(runs, 3); run += 1) {
  reader.push(
    cpuMs(() => {
      const read = createJsonlRecordReader(sha256InNode, 'bench.jsonl');
      for (const line of lines) read.push(`${line}\n`);
      if (!read.finish().ok) throw new Error('generated file refused');
    }),
  );
}
const [p, c, r] = [percentile(plain, 50), percentile(checked, 50), percentile(reader, 50)];
process.stdout.write(
  `${size.toLocaleString('en-US')} records, ${(lines.join('\n').length / 1024 / 1024).toFixed(1)} MB, CPU ms (median of ${runs}):\n` +
    `  JSON.parse alone          ${p.toFixed(0)}\n` +
    `  parseJsonText             ${c.toFixed(0)}  (+${(c - p).toFixed(0)} ms, ×${(c / p).toFixed(2)})\n` +
    `  whole reader (median of ${reader.length})  ${r.toFixed(0)}  (the check is ${(((c - p) / r) * 100).toFixed(1)} % of it)\n`,
);
