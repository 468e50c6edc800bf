import { contentHashOf, type Sha256 } from '../../core/fingerprints';
import { applyToContract, counterfactuals } from '../../core/counterfactual';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import type { Audience } from '../../core/disclosure';
import type { FactArgs } from '../../core/reasons';
import { renderSuggestion, SUGGESTIONS, type SuggestionCode } from '../../core/suggestions';
import { inputIssue } from '../../core/issues';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import type { Compilations } from '../compilations/compilations';
import type { ContractUpdate, WhatIfResponse } from '../protocol';
import type { createRecordEditing } from './record-editing';
import type { Workspace } from '../workspace/workspace';
import { wordMessage } from '../../core/messages';

export interface WhatIfDeps {
  /** The SHA-256 the session's compiler hashes with. */
  readonly sha256: Sha256;
  readonly workspace: Workspace;
  readonly compilations: Compilations;
  /** The record editor, through which a change to a record is applied as a new revision. */
  readonly records: Pick<ReturnType<typeof createRecordEditing>, 'recordForEdit' | 'editRecord'>;
  /** The compiler the changes are tried on; by default one over a database of its own, opened when first asked. */
  readonly openCompiler?: () => Promise<SqliteCompiler>;
}

/**
 * "What would admit this record": the core's counterfactuals for a record of the last compilation, and a
 * suggested change applied: to the contract as an edit, to the record as a new revision. The changes are compiled on a
 * compiler of their own, so
 * trying them neither re-indexes the session's database (its whole-corpus index included) nor evicts its memo.
 */
export function createWhatIf({
  sha256,
  workspace,
  compilations,
  records,
  openCompiler = async () => createSqliteCompiler(sha256, await openInMemoryDatabase()),
}: WhatIfDeps) {
  let compiler: Promise<SqliteCompiler> | null = null;

  return {
    async whatWouldChange(id: string, audience: Audience): Promise<WhatIfResponse> {
      const last = compilations.last();
      if (!last) return { ok: false, message: wordMessage('NOTHING_COMPILED_YET') };
      // The inspector's own words for an id the view does not name, whether no record has it or the view withholds it.
      const missing: WhatIfResponse = { ok: false, message: wordMessage('NO_RECORD_IN_VIEW', { id }) };
      if (!compilations.disclosed(last, audience).rows.some((row) => row.id === id)) return missing;
      compiler ??= openCompiler();
      const whatIf = await compiler;
      // Another compilation may have replaced it while the compiler opened: its suggestions would be about inputs no
      // longer on screen.
      if (compilations.last() !== last) return { ok: false, message: wordMessage('INPUTS_CHANGED_INSPECT_AGAIN') };
      const suggestions = (await counterfactuals(whatIf, last.request, id, audience)).map((suggestion) => ({
        code: suggestion.code,
        args: suggestion.args,
        text: renderSuggestion(suggestion),
        verifiedBy: suggestion.verifiedBy,
      }));
      return { ok: true, compilation: last.serial, id, admitted: last.outcome.admitted.has(id), suggestions };
    },

    async applySuggestion(
      { code, args }: { readonly code: SuggestionCode; readonly args: FactArgs },
      id: string,
      audience: Audience,
    ): Promise<ContractUpdate> {
      const place = { file: 'suggestion', path: code };
      if (!Object.hasOwn(SUGGESTIONS, code))
        return { ok: false, issues: [inputIssue(place, 'SUGGESTION_UNKNOWN', { code })] };
      const { contract } = workspace.effective(workspace.currentEntry()).scenario;
      const changed = applyToContract(contract, { code, args });
      if (changed !== null) return workspace.updateContract({ value: changed });
      // The one change to a record: provenance whose hash is the text's, as a revision of the record in force (the
      // editor refuses a record the view withholds).
      const opened = records.recordForEdit(id, audience);
      if (!opened.ok)
        return { ok: false, issues: [inputIssue({ file: 'record', path: 'id' }, 'EDIT_NOT_IN_VIEW', { id })] };
      const { record } = opened;
      const value = {
        ...record,
        provenance: { origin: record.provenance?.origin ?? record.id, contentHash: contentHashOf(sha256, record.text) },
      };
      const edited = await records.editRecord({ value, id, as: 'revision' }, audience);
      return edited.ok ? { ok: true, snapshot: edited.snapshot } : { ok: false, issues: edited.issues };
    },
  };
}
