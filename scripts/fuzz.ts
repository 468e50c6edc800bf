import '../src/shared/jitless-zod';
import { randomInt } from 'node:crypto';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { PROPERTIES, propertyNamed, type RegisteredProperty } from '../src/core/test-support/property-registry';
import { openInMemoryDatabase } from '../src/sqlite/load-sqlite';

/**
 * `npm run fuzz -- [--runs 1000000] [--seed N] [--property NAME]... [--minutes M] [--progress-seconds S] [--path P]`
 * Runs the registered properties (src/core/test-support/property-registry.ts) for as many cases as asked,
 * printing a progress line as it goes; on a failure it prints the seed, the replay path and the shrunk
 * counterexample, and exits 1. `--seed N --path P --property NAME` replays exactly that counterexample.
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000000' },
    seed: { type: 'string' },
    property: { type: 'string', multiple: true, default: [] },
    minutes: { type: 'string' },
    'progress-seconds': { type: 'string', default: '30' },
    path: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  process.stdout.write(
    `usage: npm run fuzz -- [--runs N] [--seed N] [--property NAME]... [--minutes M] [--progress-seconds S] [--path P]\nproperties:\n${PROPERTIES.map((entry) => `  ${entry.name.padEnd(26)} ${entry.summary} (npm test runs ${entry.testRuns.toLocaleString('en-US')})`).join('\n')}\n`,
  );
  process.exit(0);
}

const runs = Number(values.runs);
const seed = values.seed === undefined ? randomInt(2 ** 31) : Number(values.seed);
const minutes = values.minutes === undefined ? null : Number(values.minutes);
const progressMs = Number(values['progress-seconds']) * 1000;
if (
  !Number.isInteger(runs) ||
  runs < 1 ||
  !Number.isInteger(seed) ||
  (minutes !== null && !(minutes > 0)) ||
  !(progressMs > 0)
) {
  process.stderr.write('--runs and --seed take whole numbers, --minutes and --progress-seconds positive numbers\n');
  process.exit(2);
}
const chosen: RegisteredProperty[] =
  values.property.length === 0 ? [...PROPERTIES] : values.property.map(propertyNamed);

const number = (value: number) => value.toLocaleString('en-US');
const duration = (ms: number) =>
  ms < 120_000
    ? `${Math.round(ms / 1000)} s`
    : ms < 7_200_000
      ? `${(ms / 60_000).toFixed(1)} min`
      : `${(ms / 3_600_000).toFixed(2)} h`;

/** Counts every case the property runs, printing a progress line at most every `progressMs`. */
function counted(raw: fc.IRawProperty<unknown, boolean>, onRun: () => void): fc.IRawProperty<unknown, boolean> {
  return new Proxy(raw, {
    get(target, key) {
      if (key === 'run') {
        return (value: unknown) => {
          onRun();
          return target.run(value);
        };
      }
      const member: unknown = Reflect.get(target, key);
      return typeof member === 'function' ? member.bind(target) : member;
    },
  });
}

async function fuzz(entry: RegisteredProperty): Promise<boolean> {
  const started = Date.now();
  let cases = 0;
  let lastReport = started;
  const report = (final = false) => {
    const elapsed = Date.now() - started;
    const rate = cases / Math.max(elapsed / 1000, 0.001);
    const eta = rate > 0 && !final ? `, about ${duration(((runs - cases) / rate) * 1000)} to go` : '';
    process.stderr.write(
      `[${entry.name}] ${number(cases)} / ${number(runs)} cases (${((cases / runs) * 100).toFixed(1)} %), ${number(Math.round(rate))}/s, ${duration(elapsed)}${eta}, seed ${seed}\n`,
    );
  };
  const property = counted(await entry.property({ openDatabase: openInMemoryDatabase }), () => {
    cases += 1;
    const now = Date.now();
    if (now - lastReport >= progressMs) {
      lastReport = now;
      report();
    }
  });
  process.stderr.write(
    `[${entry.name}] ${entry.summary}: ${number(runs)} cases, seed ${seed}${minutes === null ? '' : `, stopping after ${minutes} min`}\n`,
  );
  const details = await fc.check(property, {
    numRuns: runs,
    seed,
    ...(values.path === undefined ? {} : { path: values.path }),
    ...(minutes === null ? {} : { interruptAfterTimeLimit: minutes * 60_000, markInterruptAsFailure: false }),
  });
  report(true);
  if (details.failed) {
    process.stdout.write(
      `\nFAILED ${entry.name} after ${number(details.numRuns)} cases (${number(details.numShrinks)} shrinks), seed ${details.seed}, path ${details.counterexamplePath ?? '-'}\n`,
    );
    process.stdout.write(
      `replay: npm run fuzz -- --property ${entry.name} --seed ${details.seed} --path ${details.counterexamplePath ?? ''} --runs 1\n`,
    );
    process.stdout.write(`${fc.defaultReportMessage(details) ?? ''}\n`);
    return false;
  }
  process.stdout.write(
    `passed ${entry.name}: ${number(details.numRuns)} cases${details.interrupted ? ' (time limit reached)' : ''} in ${duration(Date.now() - started)}, seed ${seed}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, Node ${process.version}\n`,
  );
  return true;
}

let failed = false;
for (const entry of chosen) if (!(await fuzz(entry))) failed = true;
process.exitCode = failed ? 1 : 0;
