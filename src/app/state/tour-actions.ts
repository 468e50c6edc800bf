import { observe, stepState, type TourScreen } from '../components/tour-check';
import { placeOf, tourOf } from '../components/tour-steps';
import { setAudience } from './actions';
import { resetDrill } from './drill-actions';
import { useDrillStore } from './drill-store';
import { useResultStore } from './result-store';
import { selectedScenario, useScenarioStore } from './scenario-store';
import { useTourStore } from './tour-store';
import { useUiStore } from './ui-store';
import { applySelection } from './workspace-actions';

// The guided tour: it asks for one action a step and advances only once the screen shows it done.

/** The screen as the tour reads it, from the stores' states (the card reads the same through hooks). */
export function screenFrom(parts: {
  readonly audience: TourScreen['audience'];
  readonly scenario: TourScreen['scenario'] | null;
  readonly result: ReturnType<typeof useResultStore.getState>;
  readonly drill: TourScreen['drill'];
}): TourScreen | null {
  const { scenario, result } = parts;
  if (!scenario) return null;
  const view =
    result.response?.ok && result.response.view.scenarioKey === scenario.key && result.failure === null
      ? result.response.view
      : null;
  return {
    audience: parts.audience,
    scenario,
    view,
    compiling: result.compiling,
    revision: result.revision,
    drill: parts.drill,
  };
}

function currentScreen(): TourScreen | null {
  return screenFrom({
    audience: useUiStore.getState().audience,
    scenario: selectedScenario(useScenarioStore.getState()),
    result: useResultStore.getState(),
    drill: useDrillStore.getState(),
  });
}

function goTo(index: number): void {
  const running = useTourStore.getState().running;
  if (!running || index < 0) return;
  const step = running.steps[index];
  if (!step) {
    leaveTour();
    return;
  }
  const screen = currentScreen();
  useTourStore.setState({ running: { ...running, index, refused: false, before: screen ? observe(screen) : null } });
  const place = placeOf(step.action);
  useUiStore.setState(
    place.view ? { workspace: place.workspace, activeView: place.view } : { workspace: place.workspace },
  );
}

/**
 * Starts on the selected scenario in the diagnostic view, every control off and the drill reset, as the steps expect.
 */
export async function startTour(): Promise<void> {
  const scenario = selectedScenario(useScenarioStore.getState());
  if (!scenario) return;
  const steps = tourOf(scenario);
  useTourStore.setState({ running: { scenarioKey: scenario.key, steps, index: 0, before: null, refused: false } });
  // Without controls or late changes the card only says so: there is nothing to reset or ask for.
  if (steps.length === 0) return;
  if (useUiStore.getState().audience !== 'diagnostic') await setAudience('diagnostic');
  const drill = useDrillStore.getState();
  if (drill.frozenReceiptId !== null || drill.declared.length > 0 || drill.verdict !== null) await resetDrill();
  const selection = useScenarioStore.getState().workspace?.selection;
  if (selection && (selection.controls.length > 0 || selection.lateChanges.length > 0))
    await applySelection({ controls: [], lateChanges: [] });
  if (useTourStore.getState().running?.scenarioKey === scenario.key) goTo(0);
}

/** Next: refused, with the reason, until the step's action shows on screen. */
export function nextStep(): void {
  const running = useTourStore.getState().running;
  const step = running?.steps[running.index];
  const screen = currentScreen();
  if (!running || !step || !screen) return;
  const state = stepState(step, screen, running.before);
  if (!state.done) {
    useTourStore.setState({ running: { ...running, refused: true } });
    return;
  }
  goTo(running.index + 1);
}

export function previousStep(): void {
  const running = useTourStore.getState().running;
  if (running) goTo(running.index - 1);
}

/** Records the screen a step began on once it settles, if it had not when the step began. */
export function settleBefore(): void {
  const running = useTourStore.getState().running;
  const screen = currentScreen();
  if (!running || running.before !== null || !screen) return;
  const before = observe(screen);
  if (before) useTourStore.setState({ running: { ...running, before } });
}

/** Ends the tour; the focus goes back to the button that started it, unless it is busy elsewhere (`refocus` false). */
export function leaveTour({ refocus = true } = {}): void {
  useTourStore.setState({ running: null });
  if (refocus) document.getElementById('tour-start')?.focus();
}
