import type { Sha256 } from '../../core/fingerprints';
import { isWithheldFromUser, type Audience } from '../../core/disclosure';
import { receiptIntegrity } from '../../core/drill';
import { parseReceiptJson } from '../../core/phases/1-validate/validate-receipt';
import { inputIssue } from '../../core/issues';
import { diffReceipts, discloseDiff, type ReceiptDiff } from '../../core/receipt-diff';
import { describeDiff, FORMAT_NAMES, type DiffWords } from '../../core/receipt-diff-text';
import type { Receipt } from '../../core/result';
import { changeTextsFor, withShownLabels } from '../compilations/change-texts-for-view';
import type { Compilations, LastCompile } from '../compilations/compilations';
import { asOfStops, steppedAsOf } from '../compilations/debug-views';
import {
  DIFF_VIEW_LINES,
  type AsOfStep,
  type AsOfStops,
  type BaselinePin,
  type ContractUpdate,
  type DiffView,
  type ReceiptDiffResponse,
  type ReceiptText,
} from '../protocol';
import { baselinePin, inputsOf, type HeldReceipt } from '../exports/shared-screen';
import type { Workspace } from '../workspace/workspace';

export interface ComparisonsDeps {
  /** The SHA-256 the session's compiler hashes with. */
  readonly sha256: Sha256;
  readonly workspace: Workspace;
  readonly compilations: Compilations;
}

export type Comparisons = ReturnType<typeof createComparisons>;

/**
 * Every view that compares two receipts: two dropped receipts, the pinned baseline against the last compilation,
 * and the compilation before the last as-of step against it; each the core's diff, disclosed for the audience.
 */
export function createComparisons({ sha256, workspace, compilations }: ComparisonsDeps) {
  // The compilation pinned as the baseline, and the one just before the last as-of step.
  let pinned: (HeldReceipt & { readonly pin: BaselinePin }) | null = null;
  let stepFrom: Receipt | null = null;

  /** The pinned receipt against this compilation, worked out once per audience. */
  const pinnedDiffOf = (compiled: LastCompile, pinnedReceipt: Receipt, audience: Audience): ReceiptDiff => {
    if (compiled.pinnedDiff?.pinned !== pinnedReceipt)
      compiled.pinnedDiff = { pinned: pinnedReceipt, byAudience: new Map() };
    let diff = compiled.pinnedDiff.byAudience.get(audience);
    if (!diff) {
      diff = disclosedDiff(pinnedReceipt, compiled.outcome.receipt, audience);
      compiled.pinnedDiff.byAudience.set(audience, diff);
    }
    return diff;
  };

  return {
    pinnedReceipt: (): Receipt | null => pinned?.receipt ?? null,
    /** What the pinned receipt was compiled from, for a share link. */
    pinnedInputs: () => pinned?.inputs ?? null,
    /** Pins a receipt a share link's inputs compiled again. */
    restorePin(held: HeldReceipt & { readonly pin: BaselinePin }): void {
      pinned = held;
      stepFrom = null;
    },
    pinnedDiffOf,
    /** Other inputs replaced the workspace: nothing compiled before compares with what comes next. */
    clear(): void {
      pinned = null;
      stepFrom = null;
    },

    diffReceipts(before: ReceiptText, after: ReceiptText, audience: Audience): ReceiptDiffResponse {
      const parsed = [parseReceiptJson(before.name, before.text), parseReceiptJson(after.name, after.text)];
      // Checked first, as every reader of a receipt does: one that is not this engine's, or not what its id hashes, is
      // not compared.
      const issues = parsed.flatMap((result, index) => {
        if (!result.ok) return result.error.issues ?? [];
        const unusable = receiptIntegrity(sha256, result.value);
        return unusable
          ? [
              inputIssue({ file: [before, after][index]?.name ?? '', path: 'receiptId' }, 'RECEIPT_UNUSABLE', {
                code: unusable.code,
                detail: unusable.detail,
              }),
            ]
          : [];
      });
      const [first, second] = parsed;
      if (!first?.ok || !second?.ok || issues.length > 0) return { ok: false, issues };
      const diff = disclosedDiff(first.value, second.value, audience);
      return { ok: true, diff, view: diffView(diff) };
    },

    pinBaseline(): BaselinePin | null {
      const last = compilations.last();
      if (!last) return null;
      const { receipt } = last.outcome;
      const entry = workspace.entryOf(last.scenarioKey) ?? workspace.currentEntry();
      const pin = baselinePin(workspace.effective(entry).scenario.title, last.request.contract.asOf, receipt);
      pinned = { receipt, pin, inputs: inputsOf(workspace, last) };
      return pin;
    },

    clearBaseline(): void {
      pinned = null;
    },

    baselineDiff(audience: Audience): DiffView | null {
      const last = compilations.last();
      return pinned && last ? diffView(pinnedDiffOf(last, pinned.receipt, audience)) : null;
    },

    asOfStops(audience: Audience): AsOfStops {
      const last = compilations.last();
      if (!last) return { asOf: null, before: [], after: [], total: 0, lockedBy: null };
      last.stops ??= new Map();
      let stops = last.stops.get(audience);
      if (!stops) {
        const shown = withShownLabels(
          last.appliedChanges,
          changeTextsFor(last.changes, last.request, compilations.disclosed(last, audience)),
        );
        stops = asOfStops(compilations.viewSource(last, audience), shown);
        last.stops.set(audience, stops);
      }
      return stops;
    },

    async stepAsOf(step: AsOfStep): Promise<ContractUpdate> {
      const { contract } = workspace.effective(workspace.currentEntry()).scenario;
      const asOf = steppedAsOf(contract, step);
      if (asOf === null)
        return {
          ok: false,
          issues: [
            inputIssue({ file: 'as-of step', path: 'asOf' }, 'AS_OF_NOT_STEPPED', {
              asOf: contract.asOf,
              step: JSON.stringify(step),
            }),
          ],
        };
      const before = compilations.last()?.outcome.receipt ?? null;
      const update = await workspace.updateContract({ value: { ...contract, asOf } });
      if (update.ok) stepFrom = before;
      return update;
    },

    asOfDiff(audience: Audience): DiffView | null {
      const last = compilations.last();
      return stepFrom && last ? diffView(disclosedDiff(stepFrom, last.outcome.receipt, audience)) : null;
    },
  };
}

/** One diff for every view that compares two receipts: the core's, disclosed for the audience. */
function disclosedDiff(before: Receipt, after: Receipt, audience: Audience): ReceiptDiff {
  return discloseDiff(diffReceipts(before, after), withheldIn([before, after], audience));
}

/** What a panel shows of a diff: its sections, a bounded number of lines each. */
export function diffView(diff: ReceiptDiff, words: DiffWords = FORMAT_NAMES): DiffView {
  return {
    before: diff.before,
    after: diff.after,
    identical: diff.identical,
    firstDifference: diff.firstDifference,
    sections: describeDiff(diff, DIFF_VIEW_LINES, words),
  };
}

/**
 * Ids the user view withholds on either side of a comparison (each row lists every gate it fails); none in the
 * diagnostic view.
 */
function withheldIn(receipts: readonly Receipt[], audience: Audience): Set<string> {
  const withheld = new Set<string>();
  if (audience === 'user')
    for (const receipt of receipts) for (const row of receipt.trace) if (isWithheldFromUser(row)) withheld.add(row.id);
  return withheld;
}
