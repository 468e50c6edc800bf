import type { TourExpect, TourStepFile } from '../../core/format/tour';
import type { ScenarioSummary } from '../../worker/protocol';
import type { ViewId, WorkspaceId } from '../state/ui-store';

export type TourAction =
  | { readonly do: 'switchOn' | 'switchOff'; readonly control: string }
  | { readonly do: 'freeze' | 'attempt' | 'recompile' }
  | { readonly do: 'inject'; readonly lateChange: string };

/** A step as the tour runs it. `shows` null: a step built from the scenario, whose text is what changed on screen. */
export interface TourStep {
  readonly action: TourAction;
  readonly title: string;
  readonly shows: string | null;
  readonly expect: TourExpect | null;
}

/** A scenario with more controls would make the tour longer than a workshop: the generic one takes the first ones. */
export const GENERIC_CONTROLS = 8;

function fromFile(step: TourStepFile): TourStep {
  const { title, shows } = step;
  const expect = step.expect ?? null;
  switch (step.do) {
    case 'switchOn':
    case 'switchOff':
      return { action: { do: step.do, control: step.control }, title, shows, expect };
    case 'inject':
      return { action: { do: 'inject', lateChange: step.lateChange }, title, shows, expect };
    default:
      return { action: { do: step.do }, title, shows, expect };
  }
}

/** Each control switched on and off again, then the fire drill on the first late change. */
function genericTour(scenario: ScenarioSummary): TourStep[] {
  const controls = scenario.controls.slice(0, GENERIC_CONTROLS);
  const steps: TourStep[] = controls.flatMap((control, index) => [
    {
      action: { do: 'switchOn', control: control.id },
      title: `Control ${index + 1} of ${controls.length}: ${control.label}`,
      shows: null,
      expect: null,
    },
    {
      action: { do: 'switchOff', control: control.id },
      title: `${control.label}: off again`,
      shows: null,
      expect: null,
    },
  ]);
  const late = scenario.lateChanges[0];
  if (late) {
    steps.push(
      { action: { do: 'freeze' }, title: 'Fire drill: the receipt an assistant works from', shows: null, expect: null },
      { action: { do: 'inject', lateChange: late.id }, title: `Fire drill: ${late.label}`, shows: null, expect: null },
      {
        action: { do: 'attempt' },
        title: 'Fire drill: may work go on from the frozen receipt?',
        shows: null,
        expect: null,
      },
      { action: { do: 'recompile' }, title: 'Fire drill: compile again', shows: null, expect: null },
    );
  }
  return steps;
}

/** The scenario file's own tour, else one built from its controls and late changes (empty when it has neither). */
export function tourOf(scenario: ScenarioSummary): TourStep[] {
  return scenario.tour ? scenario.tour.map(fromFile) : genericTour(scenario);
}

/** Where a step's action is taken: the control in the debugger's Contract view, or the fire drill. */
export function placeOf(action: TourAction): { readonly workspace: WorkspaceId; readonly view?: ViewId } {
  return action.do === 'switchOn' || action.do === 'switchOff'
    ? { workspace: 'debugger', view: 'contract' }
    : { workspace: 'drill' };
}

const DRILL_STEP: Record<'freeze' | 'inject' | 'attempt' | 'recompile', number> = {
  freeze: 1,
  inject: 2,
  attempt: 3,
  recompile: 4,
};

/**
 * What the card outlines, best first: the first that exists and fits beside the card is taken. Before the action,
 * where it is taken; after, where its effect shows (`entered`: a record the step brought into a column).
 */
export function targetsOf(
  step: TourStep,
  done: boolean,
  facts: {
    readonly failedClosed: boolean;
    readonly entered: { readonly kind: 'naive' | 'compiled'; readonly id: string } | null;
  },
): string[] {
  const { action } = step;
  if (action.do === 'switchOn' || action.do === 'switchOff') {
    const control = `[data-testid="control-${CSS.escape(action.control)}"]`;
    if (!done) return [`.control:has(${control})`, control];
    if (facts.failedClosed) return ['[data-testid="fail-closed"]', '[data-testid="fail-closed"] strong'];
    const entry = facts.entered ? [`[data-testid="entry-${facts.entered.kind}-${CSS.escape(facts.entered.id)}"]`] : [];
    return [
      ...entry,
      '[data-testid="column-compiled"]',
      '[data-testid="column-compiled"] .entries',
      '[data-testid="column-compiled"] h3',
    ];
  }
  if (!done) return [`.drill-steps > li:nth-child(${DRILL_STEP[action.do]})`];
  if (action.do === 'freeze') return ['[data-testid="drill-frozen"]'];
  if (action.do === 'inject') return ['[data-testid="drill-declared"]'];
  return ['[data-testid="drill-verdict"]', '[data-testid="drill-headline"]'];
}
