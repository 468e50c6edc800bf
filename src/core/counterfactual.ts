import { compareStrings, sortedSet } from './canonical';
import type { CompileRequest, Compiler } from './compile';
import { isWithheldFromUser, type Audience } from './disclosure';
import { asOfInstant } from './as-of';
import type { Contract } from './format/contract';
import type { SourceRecord } from './format/record';
import { contentHashOf, type Sha256 } from './fingerprints';
import { createRecordSet, type CheckedRecord } from './phases/1-validate/validate';
import type { FactArgs, FactArgValue, ReasonCode } from './reasons';
import type { SuggestionCode } from './suggestions';
import type { Decision, GateName } from './result';

/** One change that flips a record's admission, as a code plus arguments worded by SUGGESTIONS in reasons.ts. */
export interface Suggestion {
  readonly code: SuggestionCode;
  readonly args: FactArgs;
}

/**
 * A suggestion the compiler confirmed, and the compilation that confirmed it: its contract and what it decided for the
 * record.
 */
export interface VerifiedSuggestion extends Suggestion {
  readonly verifiedBy: {
    /** Whether the change is to the contract (it can be applied as an edit) or to the record itself. */
    readonly change: 'contract' | 'record';
    readonly contractFingerprint: string;
    readonly decision: Decision;
    readonly code: ReasonCode;
  };
}

/**
 * A candidate change: the suggestion it would be offered as, and the record it stands for when it changes the record.
 */
interface Candidate {
  readonly suggestion: Suggestion;
  readonly record?: SourceRecord;
}

/** One millisecond: the nearest as-of on the other side of a validity boundary. */
const MS = 1;

function instant(ms: number): string {
  return new Date(ms).toISOString();
}

const names = (value: FactArgValue | undefined): readonly string[] => (Array.isArray(value) ? value : []);
const name = (value: FactArgValue | undefined): string => (typeof value === 'string' ? value : '');

/**
 * The contract with a suggestion's change made; null for a change to a record. The one place a suggestion
 * becomes a contract: the candidates verified here and the edit the app applies are the same change.
 */
export function applyToContract(contract: Contract, { code, args }: Suggestion): Contract | null {
  switch (code) {
    case 'SET_AS_OF_BEFORE':
    case 'SET_AS_OF_AFTER':
      return { ...contract, asOf: name(args.asOf) };
    case 'DROP_DENY_LABELS': {
      const dropped = names(args.labels);
      return { ...contract, denyLabels: contract.denyLabels.filter((label) => !dropped.includes(label)) };
    }
    case 'DENY_LABEL':
      return { ...contract, denyLabels: sortedSet([...contract.denyLabels, name(args.label)]) };
    case 'ADD_ROLE':
      return {
        ...contract,
        principals: contract.principals.map((p) =>
          p.id === name(args.principal) && !p.roles.includes(name(args.role))
            ? { ...p, roles: [...p.roles, name(args.role)] }
            : p,
        ),
      };
    case 'ALLOW_SOURCE_CLASS':
      return {
        ...contract,
        allowedSourceClasses: sortedSet([...contract.allowedSourceClasses, name(args.sourceClass)]),
      };
    case 'DISALLOW_SOURCE_CLASS':
      return {
        ...contract,
        allowedSourceClasses: contract.allowedSourceClasses.filter((c) => c !== name(args.sourceClass)),
      };
    case 'ALLOW_AUTHORITY_CLASS':
      return {
        ...contract,
        allowedAuthorityClasses: sortedSet([...contract.allowedAuthorityClasses, name(args.authorityClass)]),
      };
    case 'SUPPLY_PROVENANCE':
      return null;
  }
}

/** Changes that may admit an excluded record, one or more per gate it fails (admit.ts decides which). */
function admittingCandidates(
  sha256: Sha256,
  contract: Contract,
  item: CheckedRecord,
  asOf: number,
  gates: readonly GateName[],
): Candidate[] {
  const { record } = item;
  const out: Candidate[] = [];
  for (const gate of gates) {
    if (gate === 'time') {
      const { validTo } = item;
      const start = Math.max(item.knownAt, item.validFrom);
      if (validTo !== null && validTo < asOf)
        out.push({ suggestion: { code: 'SET_AS_OF_BEFORE', args: { asOf: instant(validTo) } } });
      if (start > asOf) out.push({ suggestion: { code: 'SET_AS_OF_AFTER', args: { asOf: instant(start) } } });
    } else if (gate === 'deny') {
      const denied = sortedSet(record.access.labels.filter((label) => contract.denyLabels.includes(label)));
      out.push({ suggestion: { code: 'DROP_DENY_LABELS', args: { labels: denied } } });
    } else if (gate === 'authorisation') {
      const role = sortedSet(record.access.roles)[0];
      const lacking = contract.principals.filter(
        (principal) => !principal.roles.some((held) => record.access.roles.includes(held)),
      );
      for (const principal of lacking)
        if (role !== undefined) out.push({ suggestion: { code: 'ADD_ROLE', args: { principal: principal.id, role } } });
    } else if (gate === 'source') {
      out.push({ suggestion: { code: 'ALLOW_SOURCE_CLASS', args: { sourceClass: record.sourceClass } } });
    } else if (gate === 'authority') {
      out.push({ suggestion: { code: 'ALLOW_AUTHORITY_CLASS', args: { authorityClass: record.authorityClass } } });
    } else if (gate === 'provenance') {
      out.push({
        suggestion: {
          code: 'SUPPLY_PROVENANCE',
          args: { contentHash: contentHashOf(sha256, record.text).slice(0, 19) },
        },
        record: {
          ...record,
          provenance: {
            origin: record.provenance?.origin ?? record.id,
            contentHash: contentHashOf(sha256, record.text),
          },
        },
      });
    }
  }
  return out;
}

/** Changes that may exclude an admitted record: the symmetric moves, each touching one gate. */
function excludingCandidates(item: CheckedRecord): Candidate[] {
  const { record, validTo } = item;
  const out: Candidate[] = [];
  if (validTo !== null) out.push({ suggestion: { code: 'SET_AS_OF_AFTER', args: { asOf: instant(validTo + MS) } } });
  const start = Math.max(item.knownAt, item.validFrom);
  out.push({ suggestion: { code: 'SET_AS_OF_BEFORE', args: { asOf: instant(start - MS) } } });
  for (const label of sortedSet(record.access.labels))
    out.push({ suggestion: { code: 'DENY_LABEL', args: { label } } });
  out.push({ suggestion: { code: 'DISALLOW_SOURCE_CLASS', args: { sourceClass: record.sourceClass } } });
  return out;
}

/**
 * For an excluded record, the smallest changes to the contract or the record that would admit it; for an
 * admitted one, what would exclude it. Each is kept only if the real compiler, given that change, agrees, and
 * says which compilation agreed. In the user view a record the view withholds gets nothing (as an id no record
 * has); a visible one's candidates read only its own fields and the contract, and are verified on the records
 * that view shows, so no suggestion stands or falls on a withheld one. A visible record whose decision there
 * rests on a withheld one (a withheld successor: the declared exception) gets nothing either.
 */
export async function counterfactuals(
  compiler: Compiler,
  request: CompileRequest,
  recordId: string,
  audience: Audience,
): Promise<VerifiedSuggestion[]> {
  const { sha256 } = compiler;
  const base = await compiler.compile(request);
  if (!base.ok) return [];
  const row = base.value.trace.find((r) => r.id === recordId);
  const item = request.recordSet.byId.get(recordId);
  if (row === undefined || item === undefined) return [];
  if (audience === 'user' && isWithheldFromUser(row)) return [];
  const admitted = base.value.admitted.has(recordId);
  const withheld =
    audience === 'user' ? new Set(base.value.trace.filter(isWithheldFromUser).map((r) => r.id)) : new Set<string>();
  const shown =
    withheld.size === 0 ? request.recordSet.records : request.recordSet.records.filter((r) => !withheld.has(r.id));
  const shownSet = withheld.size === 0 ? request.recordSet : createRecordSet(sha256, shown);
  if (withheld.size > 0) {
    const alone = await compiler.compile({ ...request, recordSet: shownSet });
    if (!alone.ok || alone.value.admitted.has(recordId) !== admitted) return [];
  }
  const candidates = admitted
    ? excludingCandidates(item)
    : admittingCandidates(sha256, request.contract, item, asOfInstant(request.contract), row.gates);
  const kept: VerifiedSuggestion[] = [];
  for (const { suggestion, record } of candidates) {
    const contract = record === undefined ? applyToContract(request.contract, suggestion) : request.contract;
    if (contract === null) continue;
    const recordSet =
      record === undefined
        ? shownSet
        : createRecordSet(
            sha256,
            shown.map((r) => (r.id === recordId ? record : r)),
          );
    const outcome = await compiler.compile({ ...request, contract, recordSet });
    if (!outcome.ok || outcome.value.admitted.has(recordId) === admitted) continue;
    const verdict = outcome.value.trace.find((r) => r.id === recordId);
    if (verdict === undefined) continue;
    kept.push({
      ...suggestion,
      verifiedBy: {
        change: record === undefined ? 'contract' : 'record',
        contractFingerprint: outcome.value.receipt.contractFingerprint,
        decision: verdict.decision,
        code: verdict.code,
      },
    });
  }
  return kept.sort((a, b) => compareStrings(a.code, b.code));
}
