import { sha256InNode } from '../../lib/node-sha256';
import { resolve as resolvePath } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { inSnapshot, validateStoredRecords } from '../../adapters/postgres/compile-in-database';
import { connect, describeDatabase } from '../../adapters/postgres/connect';
import type { Database } from '../../adapters/postgres/schema';
import { storedVerdicts, supersessionRecords, type StoredVerdict } from '../../adapters/postgres/stored-verdicts';
import { compareStrings } from '../../core/canonical';
import { err, ok, type CompileError, type Result } from '../../core/errors';
import type { Contract } from '../../core/format/contract';
import { placeContractIssues } from '../../core/format/input-issues';
import { WITHHOLDING_GATES } from '../../core/disclosure';
import { createGateContext, evaluateGates, gateCodeOf, type GateContext } from '../../core/phases/4-admit/admit';
import { splitVerdictCode, verdictCode } from '../../adapters/postgres/answer-rows';
import { resolve, type ResolvedRecord } from '../../core/phases/2-resolve/resolve';
import { parseContractJson, type CheckedRecord } from '../../core/phases/1-validate/validate';
import { buildAdmissionPlan, planDigest } from '../../core/phases/4-admit/admission-plan';
import { EXIT, type CliIo } from '../command';
import { databaseErrorExit, databaseFailure, databaseOptionSpec } from '../database';
import { defineCommand } from '../define-command';
import { noPositionals } from '../options';
import { readDocument } from '../read-file';
import { reportError } from '../render';

/**
 * One record the database and the reference evaluator decide differently: each side's verdict ("admitted", a reason
 * code, or why the record could not be read).
 */
export interface AuditDisagreement {
  readonly id: string;
  readonly database: string;
  readonly reference: string;
}

export interface AuditReport {
  readonly snapshot: number;
  readonly planDigest: string;
  readonly records: number;
  /** The reference evaluator's verdicts: how many it admits, and how many each reason refuses. */
  readonly admitted: number;
  readonly refusedByReason: Readonly<Record<string, number>>;
  /** How many refused records fail an authorisation or deny gate: those the user view withholds. */
  readonly withheld: number;
  readonly disagreements: number;
  /** The first disagreements found, in id order. */
  readonly shown: readonly AuditDisagreement[];
}

/** Disagreements listed in the report; the rest are counted. */
const SHOWN = 100;
const ADMITTED = 'admitted';

/**
 * The reference's verdict on every record of one page, validated as a compile validates it: a record that cannot be
 * read says why.
 */
async function judgePage(
  page: readonly StoredVerdict[],
  gates: GateContext,
  supersession: ReadonlyMap<string, ResolvedRecord>,
): Promise<Map<string, string>> {
  const verdicts = new Map<string, string>();
  const judge = (checked: CheckedRecord) => {
    const id = checked.record.id;
    const resolved = supersession.get(id);
    const verdict = evaluateGates(gates, {
      checked,
      supersededBy: resolved?.supersededBy ?? null,
      brokenLink: resolved?.brokenLink ?? null,
    });
    const withheld = (verdict.failed & WITHHOLDING_GATES) !== 0;
    verdicts.set(id, verdict.fact === null ? ADMITTED : verdictCode(gateCodeOf(verdict.fact), withheld));
  };
  const whole = await validateStoredRecords(sha256InNode, [page]);
  if (whole.ok) {
    for (const checked of whole.value.checked) judge(checked);
    return verdicts;
  }
  // One bad row refuses its page: each row is read alone, so the report names every bad one.
  for (const row of page) {
    const one = await validateStoredRecords(sha256InNode, [[row]]);
    if (one.ok && one.value.checked[0]?.record.id === row.id) judge(one.value.checked[0]);
    else verdicts.set(row.id, `unreadable (${one.ok ? 'its document names another id' : one.error.message})`);
  }
  return verdicts;
}

/**
 * Re-judges every record of the database's snapshot with the reference evaluator and compares each verdict
 * with the one the database's statement gives: a page of records at a time, so memory holds a page and the
 * records supersession reads (those superseding something and their targets), never the corpus.
 */
export async function auditDatabase(
  database: Database,
  contract: Contract,
): Promise<Result<AuditReport, CompileError>> {
  return inSnapshot(database, {}, async () => {
    const graph = await supersessionRecords(sha256InNode, database);
    if (!graph.ok) return graph;
    const resolution = resolve(contract, graph.value);
    if (!resolution.ok) return resolution;
    const plan = buildAdmissionPlan(resolution.value.contract, resolution.value.brokenLinks);
    const gates = createGateContext(resolution.value.contract);
    const supersession = new Map(resolution.value.records.map((item) => [item.checked.record.id, item]));
    const { rows } = await database.query<{ snapshot: string }>(`SELECT snapshot FROM ${database.schema}.layout`);
    const refused = new Map<string, number>();
    const shown: AuditDisagreement[] = [];
    let records = 0;
    let admitted = 0;
    let withheld = 0;
    let disagreements = 0;
    const pages = storedVerdicts(database, plan);
    for (;;) {
      const next = await pages.next();
      if (next.done === true) {
        if (!next.value.ok) return next.value;
        break;
      }
      const reference = await judgePage(next.value, gates, supersession);
      for (const row of next.value) {
        const theirs = row.code ?? ADMITTED;
        const ours = reference.get(row.id) ?? 'unreadable';
        records += 1;
        if (ours === ADMITTED) admitted += 1;
        else {
          const split = splitVerdictCode(ours);
          refused.set(split.reason, (refused.get(split.reason) ?? 0) + 1);
          if (split.withheld) withheld += 1;
        }
        if (theirs === ours) continue;
        disagreements += 1;
        if (shown.length < SHOWN) shown.push({ id: row.id, database: theirs, reference: ours });
      }
    }
    return ok({
      snapshot: Number(rows[0]?.snapshot ?? 0),
      planDigest: planDigest(sha256InNode, plan),
      records,
      admitted,
      refusedByReason: Object.fromEntries([...refused].sort(([a], [b]) => compareStrings(a, b))),
      withheld,
      disagreements,
      shown,
    });
  });
}

function summary(report: AuditReport, where: string): string {
  const refused = Object.entries(report.refusedByReason).map(([code, count]) => `${code} ${count}`);
  const lines = [
    `audited ${report.records} records of ${where} at snapshot ${report.snapshot} against plan ${report.planDigest}`,
    `  ${report.admitted} admitted, ${report.records - report.admitted} ` +
      `refused${refused.length === 0 ? '' : ` (${refused.join(', ')})`}, ` +
      `${report.withheld} of them withheld from the user view`,
  ];
  if (report.disagreements === 0) lines.push('  the database and the reference evaluator agree on every record');
  else {
    lines.push(`  ${report.disagreements} record(s) decided differently by the database and the reference evaluator:`);
    for (const item of report.shown)
      lines.push(`    ${item.id}: database ${item.database}, reference ${item.reference}`);
    if (report.disagreements > report.shown.length)
      lines.push(`    … and ${report.disagreements - report.shown.length} more`);
  }
  return `${lines.join('\n')}\n`;
}

const options = {
  ...databaseOptionSpec,
  contract: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

export const auditCommand = defineCommand({
  name: 'audit',
  summary:
    "re-judge every record in a PostgreSQL database with the reference evaluator and compare with the database's own verdicts",
  usage: `usage: context-compiler audit --database postgres://… --contract FILE.json [--schema NAME] [--json]
options:
  --database TARGET    the server and database \`load\` wrote (a URL, key=value string or env: see load --help)
  --contract FILE.json the contract whose admission is audited
  --schema NAME        the schema the records are in (default context_compiler)
  --json               print the report as JSON
A compile checks every record it admits and every record that enters the packet; a record the database wrongly
refuses is seen only here. The audit reads the snapshot a page at a time, validates each record again, runs
every gate on it and compares the verdict (admitted, or the reason code, marked +withheld when the record also fails
an authorisation or deny gate) with the one the database gives.
exit: 0 they agree on every record · 6 some record is decided differently · 1 invalid input or usage ·
      2 the database gave no complete answer · 5 the database could not be reached`,
  options,
  positionals: noPositionals,
  async run({ values, usageError }, io) {
    if (values.database === undefined || values.contract === undefined)
      return usageError('GIVE_OPTIONS', { options: ['--database', '--contract'] });
    const audited = await auditContract(values.database, values.schema, values.contract, io);
    if (!audited.ok) {
      reportError(io, audited.error);
      return databaseErrorExit(audited.error);
    }
    io.stdout(
      values.json
        ? `${JSON.stringify(audited.value, null, 2)}\n`
        : summary(audited.value, `${describeDatabase(values.database)} (schema ${values.schema})`),
    );
    return audited.value.disagreements === 0 ? EXIT.ok : EXIT.auditDisagreed;
  },
});

async function auditContract(
  url: string,
  schema: string,
  contractPath: string,
  io: CliIo,
): Promise<Result<AuditReport, CompileError>> {
  const text = await readDocument(resolvePath(io.cwd, contractPath), contractPath);
  if (!text.ok) return text;
  const contract = parseContractJson(contractPath, text.value);
  if (!contract.ok) return contract;
  const opened = await connect(url, schema);
  if (!opened.ok) return opened;
  try {
    const audited = await auditDatabase(opened.value, contract.value);
    return audited.ok ? audited : err(placeContractIssues(audited.error, contractPath, text.value));
  } catch (error) {
    return err(databaseFailure(url, error));
  } finally {
    await opened.value.end();
  }
}
