import { compareStrings, sortedSet } from './canonical';
import type { CompileRequest, Compiler } from './compile';
import { isWithheldFromUser, type Audience } from './disclosure';
import type { Contract } from './format/contract';
import type { SourceRecord } from './format/record';
import { parseInstant } from './format/time';
import { contentHashOf } from './hash';
import { createRecordSet, type CheckedRecord } from './passes/validate';
import type { SuggestionCode, FactArgs } from './reasons';
import type { GateName } from './result';

/** One change that flips a record's admission, as a code plus arguments worded by SUGGESTIONS in reasons.ts. */
export interface Suggestion {
  readonly code: SuggestionCode;
  readonly args: FactArgs;
}

/** A candidate change: the suggestion it would be offered as, and the inputs it stands for. */
interface Candidate {
  readonly suggestion: Suggestion;
  readonly contract?: Contract;
  readonly record?: SourceRecord;
}

/** One millisecond: the nearest as-of on the other side of a validity boundary. */
const MS = 1;

function instant(ms: number): string {
  return new Date(ms).toISOString();
}

/** Changes that may admit an excluded record, one or more per gate it fails (gates.ts decides which). */
function admittingCandidates(contract: Contract, item: CheckedRecord, asOf: number, gates: readonly GateName[]): Candidate[] {
  const { record } = item;
  const out: Candidate[] = [];
  for (const gate of gates) {
    if (gate === 'time') {
      const { validTo } = item;
      const start = Math.max(item.knownAt, item.validFrom);
      if (validTo !== null && validTo < asOf) out.push({ suggestion: { code: 'SET_AS_OF_BEFORE', args: { asOf: instant(validTo) } }, contract: { ...contract, asOf: instant(validTo) } });
      if (start > asOf) out.push({ suggestion: { code: 'SET_AS_OF_AFTER', args: { asOf: instant(start) } }, contract: { ...contract, asOf: instant(start) } });
    } else if (gate === 'deny') {
      const denied = sortedSet(record.access.labels.filter((label) => contract.denyLabels.includes(label)));
      out.push({ suggestion: { code: 'DROP_DENY_LABELS', args: { labels: denied } }, contract: { ...contract, denyLabels: contract.denyLabels.filter((label) => !denied.includes(label)) } });
    } else if (gate === 'authorisation') {
      const role = sortedSet(record.access.roles)[0];
      const lacking = contract.principals.filter((principal) => !principal.roles.some((held) => record.access.roles.includes(held)));
      for (const principal of lacking)
        if (role !== undefined)
          out.push({
            suggestion: { code: 'ADD_ROLE', args: { principal: principal.id, role } },
            contract: { ...contract, principals: contract.principals.map((p) => (p === principal ? { ...p, roles: [...p.roles, role] } : p)) },
          });
    } else if (gate === 'source') {
      out.push({ suggestion: { code: 'ALLOW_SOURCE_CLASS', args: { sourceClass: record.sourceClass } }, contract: { ...contract, allowedSourceClasses: [...contract.allowedSourceClasses, record.sourceClass] } });
    } else if (gate === 'authority') {
      out.push({ suggestion: { code: 'ALLOW_AUTHORITY_CLASS', args: { authorityClass: record.authorityClass } }, contract: { ...contract, allowedAuthorityClasses: [...contract.allowedAuthorityClasses, record.authorityClass] } });
    } else if (gate === 'provenance') {
      out.push({ suggestion: { code: 'SUPPLY_PROVENANCE', args: { contentHash: contentHashOf(record.text).slice(0, 19) } }, record: { ...record, provenance: { origin: record.provenance?.origin ?? record.id, contentHash: contentHashOf(record.text) } } });
    }
  }
  return out;
}

/** Changes that may exclude an admitted record: the symmetric moves, each touching one gate. */
function excludingCandidates(contract: Contract, item: CheckedRecord): Candidate[] {
  const { record, validTo } = item;
  const out: Candidate[] = [];
  if (validTo !== null) out.push({ suggestion: { code: 'SET_AS_OF_AFTER', args: { asOf: instant(validTo + MS) } }, contract: { ...contract, asOf: instant(validTo + MS) } });
  const start = Math.max(item.knownAt, item.validFrom);
  out.push({ suggestion: { code: 'SET_AS_OF_BEFORE', args: { asOf: instant(start - MS) } }, contract: { ...contract, asOf: instant(start - MS) } });
  for (const label of sortedSet(record.access.labels)) out.push({ suggestion: { code: 'DENY_LABEL', args: { label } }, contract: { ...contract, denyLabels: [...contract.denyLabels, label] } });
  out.push({ suggestion: { code: 'DISALLOW_SOURCE_CLASS', args: { sourceClass: record.sourceClass } }, contract: { ...contract, allowedSourceClasses: contract.allowedSourceClasses.filter((c) => c !== record.sourceClass) } });
  return out;
}

/**
 * For an excluded record, the smallest changes to the contract or the record that would admit it; for an
 * admitted one, what would exclude it. Each is kept only if the real compiler, given that change, agrees.
 * In the user view a record the view withholds gets nothing; a visible one's candidates read only its own
 * fields and the contract, and are verified on the records that view shows.
 */
export function counterfactuals(compiler: Compiler, request: CompileRequest, recordId: string, audience: Audience): Suggestion[] {
  const base = compiler.compile(request);
  if (!base.ok) return [];
  const row = base.value.trace.find((r) => r.id === recordId);
  const item = request.recordSet.byId.get(recordId);
  if (row === undefined || item === undefined) return [];
  if (audience === 'user' && isWithheldFromUser(row)) return [];
  const admitted = base.value.admitted.has(recordId);
  const candidates = admitted ? excludingCandidates(request.contract, item) : admittingCandidates(request.contract, item, parseInstant(request.contract.asOf) ?? 0, row.gates);
  // The user view verifies against the records it may show, so no suggestion stands or falls on a withheld one.
  const withheld = audience === 'user' ? new Set(base.value.trace.filter(isWithheldFromUser).map((r) => r.id)) : new Set<string>();
  const shown = request.recordSet.records.filter((r) => !withheld.has(r.id));
  const kept: Suggestion[] = [];
  for (const candidate of candidates) {
    const changed = candidate.record;
    const recordSet = changed === undefined && withheld.size === 0 ? request.recordSet : createRecordSet(shown.map((r) => (r.id === recordId && changed !== undefined ? changed : r)));
    const outcome = compiler.compile({ ...request, contract: candidate.contract ?? request.contract, recordSet });
    if (outcome.ok && outcome.value.admitted.has(recordId) !== admitted) kept.push(candidate.suggestion);
  }
  return kept.sort((a, b) => compareStrings(a.code, b.code));
}
