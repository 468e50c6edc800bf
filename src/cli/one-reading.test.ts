import { sha256InNode } from '../lib/node-sha256';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_DIR, readManifest } from '../../scripts/hostile-corpus/manifest';
import type { CompileError, InputIssue, Result } from '../core/errors';
import { SUITE_SUFFIX } from '../core/expectations/suite';
import { parseContractJson, parseScenarioJson } from '../core/phases/1-validate/validate';
import { buildContract, buildRecord } from '../core/test-support/builders';
import { intakeFiles, type IntakeBase } from '../worker/workspace/file-intake';
import { FIXTURES_DIR } from './builtin-paths';
import { readReceiptFile } from './load-inputs';
import { readSuiteFile } from './load-suite';
import { readDocument, streamRecordsFile } from './read-file';
import { readScenarioFile } from './read-scenario';

/**
 * One reading of every file kind: each fixture and each hostile file is read by the CLI's reader for its
 * kind and by the app's (the worker's file intake), and both must give the same verdict: accepted, or
 * refused with the same issues (code and JSON path). The hostile cases whose manifest says the app differs
 * (it recognises a file's kind from its content, the CLI takes the flag's word) are left out.
 */
type Kind = 'records' | 'contract' | 'scenario' | 'receipt' | 'suite';

interface Case {
  readonly folder: string;
  readonly file: string;
  readonly kind: Kind;
  readonly with: readonly string[];
}

type Verdict = 'accepted' | readonly string[];

const issuesOf = (issues: readonly InputIssue[]) => issues.map((issue) => `${issue.code}@${issue.path}`).sort();

function verdictOf(result: Result<unknown, CompileError>): Verdict {
  if (result.ok) return 'accepted';
  return issuesOf(result.error.issues ?? []).length > 0 ? issuesOf(result.error.issues ?? []) : [result.error.code];
}

async function cliVerdict({ folder, file, kind }: Case): Promise<Verdict> {
  const path = join(folder, file);
  switch (kind) {
    case 'records':
      return verdictOf(await streamRecordsFile(path, file));
    case 'contract': {
      const text = await readDocument(path, file);
      return verdictOf(text.ok ? parseContractJson(file, text.value) : text);
    }
    case 'scenario':
      return verdictOf(await readScenarioFile(path, file));
    case 'receipt':
      return verdictOf(await readReceiptFile(file, folder));
    case 'suite':
      return verdictOf(await readSuiteFile({ path, display: file }));
  }
}

let base: IntakeBase;

async function appVerdict({ folder, file, with: together }: Case): Promise<Verdict> {
  const blobs = [file, ...together].map((name) => ({ name, blob: new Blob([readFileSync(join(folder, name))]) }));
  const read = await intakeFiles(sha256InNode, blobs, base, () => undefined, new AbortController().signal);
  return read.ok ? 'accepted' : issuesOf(read.error.issues);
}

function kindOf(file: string): Kind | null {
  if (file.endsWith(SUITE_SUFFIX)) return 'suite';
  if (file.endsWith('.jsonl')) return 'records';
  if (file === 'scenario.json') return 'scenario';
  return null;
}

/** The built-in scenarios' files; a scenario is read with the records file it names. */
function fixtureCases(): Case[] {
  const cases: Case[] = [];
  for (const name of readdirSync(FIXTURES_DIR)) {
    if (name === 'hostile') continue;
    const folder = join(FIXTURES_DIR, name);
    for (const file of readdirSync(folder)) {
      const kind = kindOf(file);
      if (kind === null || file === 'queries.jsonl') continue;
      cases.push({
        folder,
        file,
        kind,
        with: kind === 'scenario' && readdirSync(folder).includes('records.jsonl') ? ['records.jsonl'] : [],
      });
    }
  }
  return cases;
}

function hostileCases(): Case[] {
  return readManifest()
    .cases.filter((entry) => entry.app === undefined)
    .map((entry) => ({ folder: HOSTILE_DIR, file: entry.file, kind: entry.kind, with: entry.with }));
}

/** Scenarios whose change text names a record it does not declare: the records inline, and in a file beside it. */
function undeclaredMentionCases(): Case[] {
  const folder = mkdtempSync(join(tmpdir(), 'cc-one-reading-'));
  const records = [buildRecord({ id: 'FAQ-PL-12' }), buildRecord({ id: 'OPEN-2' })];
  const lateChanges = [
    {
      id: 'faq-required',
      label: 'HR says FAQ-PL-12 must be included',
      explanation: 'A late change of the contract.',
      patches: [{ op: 'mergeContract', patch: { tokenBudget: 500 } }],
    },
  ];
  const scenario = (id: string, recordsField: unknown) =>
    `${JSON.stringify({ id, title: 'Undeclared', contract: buildContract(), records: recordsField, lateChanges }, null, 2)}\n`;
  writeFileSync(join(folder, 'inline.json'), scenario('inline', records));
  writeFileSync(join(folder, 'sibling.json'), scenario('sibling', 'sibling.records.jsonl'));
  writeFileSync(join(folder, 'sibling.records.jsonl'), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  return [
    { folder, file: 'inline.json', kind: 'scenario', with: [] },
    { folder, file: 'sibling.json', kind: 'scenario', with: ['sibling.records.jsonl'] },
  ];
}

describe('the CLI and the app read every file the same way', () => {
  beforeAll(() => {
    const text = readFileSync(join(HOSTILE_DIR, 'base.scenario.json'), 'utf8');
    const loaded = parseScenarioJson(sha256InNode, 'base.scenario.json', text, () => null);
    if (!loaded.ok) throw new Error(loaded.error.message);
    base = { key: 'base', loaded: loaded.value };
  });

  it('refuses a late change that names a record it does not declare, whether the records are inline or beside it', async () => {
    for (const entry of undeclaredMentionCases()) {
      expect(await cliVerdict(entry), entry.file).toEqual(['CHANGE_NAMES_UNDECLARED@lateChanges[0].label']);
      expect(await appVerdict(entry), entry.file).toEqual(['CHANGE_NAMES_UNDECLARED@lateChanges[0].label']);
    }
  });

  it('gives every fixture and every hostile file the same verdict in both readers', async () => {
    const cases = [...fixtureCases(), ...hostileCases()];
    expect(cases.length).toBeGreaterThan(120);
    const differing: string[] = [];
    for (const entry of cases) {
      const cli = await cliVerdict(entry);
      const app = await appVerdict(entry);
      if (JSON.stringify(cli) !== JSON.stringify(app))
        differing.push(`${entry.file}: CLI ${JSON.stringify(cli)}, app ${JSON.stringify(app)}`);
    }
    expect(differing).toEqual([]);
  }, 120_000);
});
