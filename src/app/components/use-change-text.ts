import { REDACTED_RECORD, redactText } from '../../core/change-text';
import type { ChangeSummary, ChangeText } from '../../worker/protocol';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';

export { REDACTED_RECORD };

/**
 * A control's or late change's label and explanation as the view on screen may show them: the compilation's own
 * (the user view redacts the records it withholds), or, before one of this scenario is shown, in the user view every
 * record the change declares redacted, since which of them it withholds is not known yet.
 */
export function useChangeText(
  scenarioKey: string,
): (change: ChangeSummary, kind: ChangeText['kind']) => { readonly label: string; readonly explanation: string } {
  const response = useResultStore((state) => state.response);
  const audience = useUiStore((state) => state.audience);
  const view =
    response?.ok && response.view.scenarioKey === scenarioKey && response.view.audience === audience
      ? response.view
      : null;
  return (change, kind) => {
    const compiled = view?.changeTexts.find((text) => text.id === change.id && text.kind === kind);
    if (compiled) return compiled;
    if (audience !== 'user') return change;
    const hidden = new Set(change.records);
    return { label: redactText(change.label, hidden), explanation: redactText(change.explanation, hidden) };
  };
}
