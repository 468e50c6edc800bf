import type { Audience } from '../../core/disclosure';
import { addedRecords, declaredRecords, redactText } from '../../core/change-text';
import { diffWordsWith, type DiffWords } from '../../core/receipt-diff-text';
import type { CompileRequest } from '../../core/compile';
import type { DisclosedView } from '../../core/disclosure';
import type { Control, LateChange } from '../../core/format/scenario';
import type { AppliedChange, ChangeText } from '../protocol';

interface ScenarioChanges {
  readonly controls: readonly Control[];
  readonly lateChanges: readonly LateChange[];
}

/**
 * The records a change declares that this view may not name: those the compilation holds and the view withholds,
 * and those it does not hold at all unless the change adds them itself (nothing withholds a record before it exists).
 * A record's id is shown only where the view could show the record.
 */
function hiddenBy(change: Control | LateChange, request: CompileRequest, view: DisclosedView): Set<string> {
  if (view.audience !== 'user') return new Set();
  const added = addedRecords(change);
  return new Set(
    declaredRecords(change).filter((id) => (request.recordSet.byId.has(id) ? view.withheld.has(id) : !added.has(id))),
  );
}

/** Every control's and late change's label and explanation as this view may show them. */
export function changeTextsFor(scenario: ScenarioChanges, request: CompileRequest, view: DisclosedView): ChangeText[] {
  const text = (change: Control | LateChange, kind: ChangeText['kind']): ChangeText => {
    const hidden = hiddenBy(change, request, view);
    return {
      id: change.id,
      kind,
      label: redactText(change.label, hidden),
      explanation: redactText(change.explanation, hidden),
    };
  };
  return [
    ...scenario.controls.map((change) => text(change, 'control')),
    ...scenario.lateChanges.map((change) => text(change, 'late-change')),
  ];
}

/** The applied changes with the labels of `texts` (the chips say what the toggles say). */
export function withShownLabels(applied: readonly AppliedChange[], texts: readonly ChangeText[]): AppliedChange[] {
  return applied.map((change) => ({
    ...change,
    label: texts.find((text) => text.id === change.id && text.kind === change.kind)?.label ?? change.label,
  }));
}

/**
 * How a diff names receipt fields and changes for an audience: by their labels, the user view's with every record
 * a change declares redacted (a diff's two receipts need not share what the view withholds).
 */
export function diffWordsFor(scenario: ScenarioChanges, audience: Audience): DiffWords {
  const labels = new Map<string, string>();
  for (const change of [...scenario.controls, ...scenario.lateChanges])
    labels.set(
      change.id,
      audience === 'user' ? redactText(change.label, new Set(declaredRecords(change))) : change.label,
    );
  return diffWordsWith((id) => labels.get(id) ?? id);
}
