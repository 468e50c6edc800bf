import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import '../src/shared/jitless-zod';
import { BASE, baseContract, baseRecords, baseScenario, line, lines, valid, withField } from './hostile-corpus/build';
import {
  caseSchema,
  HOSTILE_DIR,
  MANIFEST_FILE,
  manifestSchema,
  readManifest,
  type HostileCase,
  type HostileManifest,
} from './hostile-corpus/manifest';
import { contractCases } from './hostile-corpus/contract-cases';
import { receiptCases } from './hostile-corpus/receipt-cases';
import { recordCases } from './hostile-corpus/record-cases';
import { scenarioCases } from './hostile-corpus/scenario-cases';

/**
 * The hostile corpus (fixtures/hostile/): files an attacker or an unlucky user could hand the compiler,
 * each with the outcome it must have. `npx tsx scripts/hostile-corpus.ts` writes the generated cases and
 * their manifest entries; entries it does not generate (added by hand) are kept. The CLI, the worker
 * session and the built app run the corpus (src/cli/hostile-corpus.test.ts,
 * src/worker/hostile-corpus.test.ts, e2e/hostile-corpus.spec.ts); docs/TESTING.md says how to add a case.
 */

async function writeCorpus(): Promise<void> {
  const generated = [...recordCases(), ...contractCases(), ...scenarioCases(), ...(await receiptCases())];
  const siblings: Record<string, string> = {
    'scenario-sibling-bad.records.jsonl': lines(...valid('R-1'), withField('R-2', 'tokens', 'many')),
    'scenario-sibling-good.records.jsonl': lines(...valid('R-1', 'R-2', 'R-3')),
  };
  const previous = existsSync(MANIFEST_FILE) ? readManifest() : null;
  const ours = new Set(generated.map((entry) => entry.file));
  const kept = previous?.cases.filter((entry) => !ours.has(entry.file)) ?? [];
  for (const entry of previous?.cases ?? [])
    if (ours.has(entry.file)) rmSync(`${HOSTILE_DIR}${entry.file}`, { force: true });
  mkdirSync(HOSTILE_DIR, { recursive: true });
  writeFileSync(`${HOSTILE_DIR}${BASE.records}`, lines(...baseRecords.map(line)));
  writeFileSync(`${HOSTILE_DIR}${BASE.contract}`, `${JSON.stringify(baseContract, null, 2)}\n`);
  writeFileSync(`${HOSTILE_DIR}${BASE.scenario}`, `${JSON.stringify(baseScenario, null, 2)}\n`);
  for (const [name, text] of Object.entries(siblings)) writeFileSync(`${HOSTILE_DIR}${name}`, text);
  for (const entry of generated) writeFileSync(`${HOSTILE_DIR}${entry.file}`, entry.text);
  const cases: HostileCase[] = [...generated.map(({ text: _text, ...entry }) => caseSchema.parse(entry)), ...kept];
  const manifest: HostileManifest = { base: BASE, cases };
  writeFileSync(MANIFEST_FILE, `${JSON.stringify(manifestSchema.parse(manifest), null, 2)}\n`);
  console.log(`wrote ${generated.length} generated cases (${kept.length} kept by hand) to fixtures/hostile/`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await writeCorpus();
