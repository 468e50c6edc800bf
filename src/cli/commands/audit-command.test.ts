import { sha256InNode } from '../../lib/node-sha256';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenLinksCase, conformanceCases } from '../../adapters/conformance/corpus';
import { connect, type Connection } from '../../adapters/postgres/connect';
import { AUDIT_PAGE } from '../../adapters/postgres/stored-verdicts';
import { loadRecordSet } from '../../adapters/postgres/load-records';
import { POSTGRES_URL } from '../../adapters/postgres/test-server';
import { createUnicodeTokeniser } from '../../adapters/postgres/unicode61';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import { EXIT } from '../command';
import { main } from '../main';
import type { AuditReport } from './audit-command';

const schema = `cc_audit_command_${process.pid}`;
const denied = conformanceCases(0).find((item) => item.name.startsWith('deny alone'));
if (denied === undefined) throw new Error('the corpus has no deny case');
const label = denied.contract.denyLabels[0] ?? '';
// A corpus with every gate's refusals, broken supersession links, and more records than one audit page.
const base = denied.records[0];
if (base === undefined) throw new Error('the deny case has no records');
const records = [
  ...conformanceCases(1)
    .flatMap((item) => item.records)
    .filter((record, index, all) => all.findIndex((other) => other.id === record.id) === index),
  ...brokenLinksCase().records,
  ...Array.from({ length: AUDIT_PAGE + 5 }, (_, index) => ({ ...base, id: `bulk-${String(index).padStart(5, '0')}` })),
  // Refused for its scope first, and withheld from the user view for its label.
  { ...base, id: 'scope-and-deny', scope: 'a scope no contract allows', access: { ...base.access, labels: [label] } },
].filter((record, index, all) => all.findIndex((other) => other.id === record.id) === index);

async function run(cwd: string, args: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main([...args], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd });
  return { code, stdout, stderr };
}

describe.skipIf(POSTGRES_URL === undefined)('audit --database', () => {
  const url = POSTGRES_URL ?? '';
  const target = ['--database', url, '--schema', schema];
  let cwd: string;
  let database: Connection;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'cc-audit-'));
    writeFileSync(join(cwd, 'contract.json'), JSON.stringify(denied.contract));
    const opened = await connect(url, schema);
    if (!opened.ok) throw new Error(opened.error.message);
    database = opened.value;
    const loaded = await loadRecordSet(
      sha256InNode,
      database,
      'records.jsonl',
      createRecordSet(sha256InNode, records),
      createUnicodeTokeniser(),
    );
    if (!loaded.ok) throw new Error(loaded.error.message);
  });
  afterAll(async () => {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    await database.end();
  });

  it('finds the database and the reference evaluator agreeing on every record of a loaded corpus, page after page', async () => {
    const audited = await run(cwd, ['audit', ...target, '--contract', 'contract.json', '--json']);
    expect(audited.code, audited.stderr).toBe(EXIT.ok);
    const report = JSON.parse(audited.stdout) as AuditReport;
    expect(report).toMatchObject({ records: records.length, disagreements: 0, shown: [] });
    expect(report.withheld).toBeGreaterThan(report.refusedByReason.EXCLUDE_DENY_LABEL ?? 0);
    expect(report.admitted).toBeGreaterThan(AUDIT_PAGE);
    expect(Object.keys(report.refusedByReason)).toEqual(
      expect.arrayContaining(['EXCLUDE_DENY_LABEL', 'EXCLUDE_DANGLING_SUPERSESSION', 'EXCLUDE_SUPERSESSION_CYCLE']),
    );
    const text = await run(cwd, ['audit', ...target, '--contract', 'contract.json']);
    expect(text.stdout).toContain('the database and the reference evaluator agree on every record');
    expect(text.stdout).toContain(`, ${report.withheld} of them withheld from the user view`);
  });

  it('catches a row corrupted behind the load: a denied label dropped from the gate columns, and a document that no longer matches its fingerprint', async () => {
    const { rows } = await database.query<{ id: string }>(
      `SELECT id FROM ${database.schema}.records WHERE $1 = ANY (labels) ORDER BY id LIMIT 1`,
      [label],
    );
    const victim = rows[0]?.id ?? '';
    expect(victim).not.toBe('');
    await database.query(`UPDATE ${database.schema}.records SET labels = '{}' WHERE id = $1`, [victim]);
    await database.query(
      `UPDATE ${database.schema}.documents SET document = replace(document, 'Body of', 'Changed body of') WHERE id = 'bulk-00007'`,
    );
    const audited = await run(cwd, ['audit', ...target, '--contract', 'contract.json', '--json']);
    expect(audited.code).toBe(EXIT.auditDisagreed);
    const report = JSON.parse(audited.stdout) as AuditReport;
    expect(report.disagreements).toBe(2);
    expect(report.shown[0]).toMatchObject({ id: 'bulk-00007', database: 'admitted' });
    expect(report.shown[0]?.reference).toMatch(/^unreadable .*fingerprint/);
    expect(report.shown[1]).toEqual({ id: victim, database: 'admitted', reference: 'EXCLUDE_DENY_LABEL+withheld' });
    const text = await run(cwd, ['audit', ...target, '--contract', 'contract.json']);
    expect(text.stdout).toContain(`${victim}: database admitted, reference EXCLUDE_DENY_LABEL+withheld`);
  });

  it('catches a refused record the database would count as visible: its label dropped behind the load', async () => {
    await database.query(`UPDATE ${database.schema}.records SET labels = '{}' WHERE id = 'scope-and-deny'`);
    const audited = await run(cwd, ['audit', ...target, '--contract', 'contract.json', '--json']);
    expect(audited.code).toBe(EXIT.auditDisagreed);
    const report = JSON.parse(audited.stdout) as AuditReport;
    expect(report.shown).toContainEqual({
      id: 'scope-and-deny',
      database: 'EXCLUDE_SCOPE',
      reference: 'EXCLUDE_SCOPE+withheld',
    });
  });
});
