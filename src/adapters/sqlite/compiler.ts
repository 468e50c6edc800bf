import type { Sha256 } from '../../core/fingerprints';
import { walkBudget } from '../../core/budget';
import { compareStrings } from '../../core/canonical';
import { createCompiler, type BaselineSource, type Compiler, type KeyRules } from '../../core/compile';
import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { RecordSet } from '../../core/phases/1-validate/validate';
import { ALL_CAPABILITIES } from '../../core/phases/4-admit/adapter';
import {
  PLAN_OPERATORS,
  type AdmissionPlan,
  type ListField,
  type PlanClause,
  type ScalarField,
} from '../../core/phases/4-admit/admission-plan';
import type { BaselinePacket } from '../../core/result';
import type { Store } from '../../core/store';
import type { SqlDriver, SqlValue } from './driver';
import { rankCorpus } from './fts5-rank';
import { createRecordIndex } from './record-index';
import type { LoweredAdmission, RecordIndex, SliceProgress, SyncReport } from './record-index-api';

type Progress = (done: number, total: number) => void;

/** Changes whenever the SQLite lowering changes what it sends: named with the adapter wherever it is reported. */
export const SQLITE_ADAPTER_VERSION = '2';

/** The SQLite store, and the record index it keeps (the worker indexes ahead of compiling, a slice at a time). */
export interface SqliteStore extends Store {
  readonly index: RecordIndex;
}

/**
 * The built-in store: the records' rows and text indexes in the worker's or the CLI's SQLite (the build is
 * injected), the plan lowered to one parameterised statement over them, bm25 over the admitted set's own
 * text table. Columns compare with SQLite's BINARY collation and are stored as given, so it keeps every capability.
 * Every answer is computed in the call: a compile over it runs within one task.
 */
export function createSqliteStore(driver: SqlDriver, index: RecordIndex = createRecordIndex(driver)): SqliteStore {
  let version: string | null = null;
  return {
    name: 'sqlite',
    adapterVersion: SQLITE_ADAPTER_VERSION,
    get version() {
      version ??= `${SQLITE_ADAPTER_VERSION} (SQLite ${String(driver.all('SELECT sqlite_version()')[0]?.[0] ?? '?')})`;
      return version;
    },
    capabilities: new Set(ALL_CAPABILITIES),
    operators: new Set(PLAN_OPERATORS),
    index,
    async recordsToCompile(recordSet) {
      index.sync(recordSet);
      return ok(recordSet);
    },
    async admit(plan, digest) {
      const lowered = lowerAdmission(plan, digest, driver.maxParameters);
      if (!lowered.ok) return lowered;
      return ok({ status: 'complete', candidates: index.admit(lowered.value), predicateDigest: lowered.value.digest });
    },
    async holdAdmitted(_admitted, recordSet) {
      // admitted_text follows the rows the index's last admission wrote; its generation changes with its rows.
      index.syncAdmittedText(recordSet);
      return index.admittedTextGeneration;
    },
    rankAdmitted: async (query) => index.rankAdmitted(query),
  };
}

/**
 * The core's compiler over a SQLite store, with what only SQLite offers: indexing ahead of a compile, and the
 * whole-corpus baselines.
 */
export interface SqliteCompiler extends Compiler, BaselineSource {
  /** Writes the records' rows (what admission reads) ahead of compiling, with progress; compile does it too. */
  index(recordSet: RecordSet, onProgress?: Progress): SyncReport;
  /** Indexes every record's text for the baselines, with progress; `baselines` does it too when needed. */
  indexCorpus(recordSet: RecordSet, onProgress?: Progress): void;
  /** `index` a slice of records per step, so the caller can yield between steps and stop (a cancelled load). */
  indexSteps(recordSet: RecordSet, slice: number): Generator<SliceProgress, SyncReport>;
  /**
   * `indexCorpus` a slice per step for the records last indexed or compiled, so the whole-corpus index can
   * be built in the background between calls; true once it is complete, false if a sliced `index` interrupted it.
   */
  indexCorpusSteps(slice: number): Generator<SliceProgress, boolean>;
}

/**
 * One compiler per database: the core's one pipeline over this database's store. Baselines read `corpus_text`,
 * which a compile never touches; the last whole-corpus ranking is kept while what it read is unchanged (a
 * declared ranking reads the records' own scores, so it is ranked again every time). `keys` is for tests only
 * (`createCompiler`).
 */
export function createSqliteCompiler(sha256: Sha256, driver: SqlDriver, keys?: KeyRules): SqliteCompiler {
  const store = createSqliteStore(driver);
  const { index } = store;
  const compiler = createCompiler(sha256, store, keys);
  let lastCorpusRank: { readonly key: string; readonly ids: readonly string[] } | null = null;
  return {
    compile: (request) => compiler.compile(request),
    memoStats: () => compiler.memoStats(),
    sha256,
    index: (recordSet, onProgress) => index.sync(recordSet, onProgress),
    indexCorpus(recordSet, onProgress) {
      index.sync(recordSet);
      index.syncCorpusText(recordSet, onProgress);
    },
    indexSteps: (recordSet, slice) => index.syncSteps(recordSet, slice),
    indexCorpusSteps: (slice) => index.corpusTextSteps(slice),
    baselines(request, outcome) {
      const { contract, recordSet } = request;
      index.sync(recordSet);
      index.syncCorpusText(recordSet);
      const key = JSON.stringify([contract.query, contract.ranking, contract.naiveTopK, index.corpusTextGeneration]);
      const top =
        lastCorpusRank !== null && lastCorpusRank.key === key && contract.ranking !== 'declared'
          ? lastCorpusRank.ids
          : rankCorpus(driver, contract.query, contract.ranking, contract.naiveTopK).map((row) => row.id);
      lastCorpusRank = { key, ids: top };
      const tokensOf = (id: string) => recordSet.byId.get(id)?.record.tokens ?? 0;
      const required = [...new Set(contract.requiredRecords)].sort(compareStrings);
      const describe = (kind: BaselinePacket['kind'], ids: readonly string[]): BaselinePacket => {
        const { selected, used } = walkBudget(ids, tokensOf, contract.tokenBudget);
        const chosen = new Set(selected);
        return {
          kind,
          ranked: ids.length,
          selected,
          tokensUsed: used,
          tokenBudget: contract.tokenBudget,
          illegal: selected.filter((id) => !outcome.admitted.has(id)),
          requiredMissed: required.filter((id) => !chosen.has(id)),
        };
      };
      return {
        naive: describe('naive', top),
        postFilter: describe(
          'post-filter',
          top.filter((id) => outcome.admitted.has(id)),
        ),
      };
    },
  };
}

const COLUMN: Readonly<Record<ScalarField, string>> = {
  id: 'r.id',
  project: 'r.project',
  scope: 'r.scope',
  lifecycle: 'r.lifecycle',
  sourceClass: 'r.source_class',
  authorityClass: 'r.authority_class',
  reviewState: 'r.review_state',
  sensitivity: 'r.sensitivity',
};

/** A record's list column (a list number) and the table and column holding its members. */
const LIST: Readonly<Record<ListField, { readonly column: string; readonly table: string; readonly member: string }>> =
  {
    roles: { column: 'r.roles', table: 'role_lists', member: 'role' },
    purposes: { column: 'r.purposes', table: 'purpose_lists', member: 'purpose' },
    labels: { column: 'r.labels', table: 'label_lists', member: 'label' },
  };

interface Lowering {
  readonly clauses: string[];
  readonly params: SqlValue[];
  readonly identityNames: [string, string][];
  readonly acceptedEvidence: [string, string][];
  readonly principals: number[];
  readonly principalRoles: [number, string][];
}

/** One clause into `into`; false when its operator is not one this lowering knows (the plan then fails). */
function lowerClause(clause: PlanClause, into: Lowering): boolean {
  const add = (sql: string, values: readonly SqlValue[] = []) => {
    into.clauses.push(sql);
    for (const value of values) into.params.push(value);
  };
  switch (clause.op) {
    case 'equals':
      add(`${COLUMN[clause.field]} = ?`, [clause.value.value]);
      return true;
    case 'member-of':
      add(`${COLUMN[clause.field]} IN (SELECT value FROM json_each(?))`, [JSON.stringify(clause.set.values)]);
      return true;
    case 'not-member-of':
      if (clause.set.values.length > 0)
        add(`${COLUMN[clause.field]} NOT IN (SELECT value FROM json_each(?))`, [JSON.stringify(clause.set.values)]);
      return true;
    case 'list-contains': {
      const list = LIST[clause.field];
      add(`${list.column} IN (SELECT x.list FROM ${list.table} x WHERE x.${list.member} = ?)`, [clause.value.value]);
      return true;
    }
    case 'list-disjoint': {
      const list = LIST[clause.field];
      if (clause.set.values.length > 0)
        add(
          `${list.column} NOT IN (SELECT x.list FROM ${list.table} x WHERE x.${list.member} IN (SELECT value ` +
            `FROM json_each(?)))`,
          [JSON.stringify(clause.set.values)],
        );
      return true;
    }
    case 'every-group-meets-list': {
      const list = LIST[clause.field];
      clause.groups.forEach((group, position) => {
        into.principals.push(position);
        for (const role of group.values) into.principalRoles.push([position, role]);
      });
      // No principal of the chain may lack every role the record allows. Decided once per distinct list (a
      // list no record row holds costs nothing; the empty list holds no row and fails while any principal
      // exists, as it would per record).
      add(`NOT EXISTS (SELECT 1 FROM principals) OR ${list.column} IN (SELECT l.list FROM (SELECT DISTINCT list FROM ${list.table}) l
    WHERE NOT EXISTS (SELECT 1 FROM principals p WHERE NOT EXISTS (
      SELECT 1 FROM ${list.table} x JOIN principal_roles pr ON pr.role = x.${list.member} WHERE x.list = l.list AND pr.principal = p.principal)))`);
      return true;
    }
    case 'subject-resolves':
      for (const { name, identities } of clause.directory)
        for (const identity of identities) into.identityNames.push([name, identity]);
      if (clause.subject === null) {
        add(
          '(r.subject IS NULL OR (SELECT COUNT(DISTINCT n.identity) FROM identity_names n WHERE n.name = ' +
            'r.subject) <= 1)',
        );
      } else {
        add(
          `(r.subject IS NULL OR CASE WHEN EXISTS (SELECT 1 FROM identity_names n WHERE n.name = r.subject)
        THEN (SELECT COUNT(DISTINCT n.identity) FROM identity_names n WHERE n.name = r.subject) = 1
             AND EXISTS (SELECT 1 FROM identity_names n WHERE n.name = r.subject AND n.identity = ?)
        ELSE r.subject = ? END)`,
          [clause.subject.value, clause.subject.value],
        );
      }
      return true;
    case 'in-force-at': {
      const at = clause.at.epochMs;
      add('r.known_at <= ? AND r.valid_from <= ? AND (r.valid_to IS NULL OR r.valid_to >= ?)', [at, at, at]);
      return true;
    }
    case 'not-superseded-at':
      add(
        `NOT EXISTS (SELECT 1 FROM supersessions s JOIN records y ON y.id = s.successor
       WHERE s.target = r.id AND y.lifecycle = 'active' AND y.known_at <= ? AND y.valid_from <= ?)`,
        [clause.at.epochMs, clause.at.epochMs],
      );
      return true;
    case 'provenance-verified':
      add('r.provenance_ok = 1');
      return true;
    case 'required-or-accepted-evidence':
      for (const { proposition, classes } of clause.accepted)
        for (const cls of classes.values) into.acceptedEvidence.push([proposition, cls]);
      add(
        `r.id IN (SELECT value FROM json_each(?)) OR EXISTS (SELECT 1 FROM record_claims c JOIN accepted_evidence a ON a.proposition = c.proposition
         WHERE c.record_rowid = r.rowid AND a.class = r.evidence_class)`,
        [JSON.stringify(clause.required.values)],
      );
      return true;
    default:
      return false;
  }
}

/**
 * Lowers every clause of the plan into one parameterised WHERE (values are always bound, never spliced).
 * If a clause cannot be expressed exactly, it refuses; it never emits a weaker filter.
 */
export function lowerAdmission(
  plan: AdmissionPlan,
  digest: string,
  maxParameters: number,
): Result<LoweredAdmission, CompileError> {
  const into: Lowering = {
    clauses: [],
    params: [],
    identityNames: [],
    acceptedEvidence: [],
    principals: [],
    principalRoles: [],
  };
  for (const clause of plan.clauses) {
    if (!lowerClause(clause, into)) {
      return err(
        compileError({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' }, 'LOWERING_NO_FORM', {
          store: 'SQLite',
          op: String((clause as { op: unknown }).op),
        }),
      );
    }
  }
  if (into.params.length > maxParameters) {
    return err(
      compileError({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' }, 'LOWERING_TOO_MANY_VALUES', {
        needed: into.params.length,
        allowed: maxParameters,
      }),
    );
  }
  const where = into.clauses.length === 0 ? '1' : into.clauses.map((clause) => `(${clause})`).join('\n  AND ');
  const { params, identityNames, acceptedEvidence, principals, principalRoles } = into;
  return ok({ digest, where, params, identityNames, acceptedEvidence, principals, principalRoles });
}
