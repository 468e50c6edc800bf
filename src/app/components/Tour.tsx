import { useEffect, useRef, type KeyboardEvent } from 'react';
import { selectScenario } from '../state/workspace-actions';
import { useScenarioStore } from '../state/scenario-store';
import { useUiStore, type ViewId, type WorkspaceId } from '../state/ui-store';

interface TourStep {
  readonly title: string;
  readonly text: string;
  /** Where the step looks: the workspace, and on a narrow screen the tab. */
  readonly workspace: WorkspaceId;
  readonly view?: ViewId;
  /** What it points at; the first selector that matches is outlined and scrolled into view. */
  readonly targets: readonly string[];
}

/** Seed 003's "Try it in 90 seconds", step for step, on the default scenario. */
export const TOUR_STEPS: readonly TourStep[] = [
  {
    title: 'Naive relevance against the compiled packet',
    text: 'Three packets under the same 96-token budget. The naive top-k takes the five most similar records; all five are illegal for this task. The compiled packet admits first, then ranks inside what was admitted.',
    workspace: 'debugger',
    view: 'compare',
    targets: ['.columns'],
  },
  {
    title: 'The required record naive ranking misses',
    text: 'ADR-0234 is the binding decision, worded unlike the question: naive ranking never reaches it (“Required missed: ADR-0234”). The compiled packet protects it before any ranking.',
    workspace: 'debugger',
    view: 'compare',
    targets: ['[data-testid="entry-compiled-ADR-0234"]', '[data-testid="column-compiled"]'],
  },
  {
    title: 'A reason and a boundary fact for every candidate',
    text: 'Each of the 13 candidates has one decision, a reason code and the fact that decided it (project payouts-platform ≠ payments-platform; a content hash that does not match). Press a reason code for its glossary entry.',
    workspace: 'debugger',
    view: 'trace',
    targets: ['[role="table"][aria-label="Trace"]'],
  },
  {
    title: 'Fire drill: a late correction makes the receipt stale',
    text: 'Press Freeze receipt, then Inject late change (RUN-0880 is now required), then Attempt to continue: STALE — RECOMPILE REQUIRED. The old receipt cannot go on.',
    workspace: 'drill',
    targets: ['section[aria-labelledby="drill-heading"]'],
  },
  {
    title: 'Recompile: a new current receipt',
    text: 'Press Recompile current context: the verdict turns CURRENT — MAY CONTINUE with a new receipt, and RUN-0880 is in the packet as required context (Compiled now).',
    workspace: 'drill',
    targets: ['[data-testid="drill-current"]'],
  },
  {
    title: 'Remove the required provenance',
    text: 'Switch on Remove required provenance (the packet recompiles at once; Compile context does it again by hand).',
    workspace: 'debugger',
    view: 'contract',
    targets: ['.control:has([data-testid="control-remove-provenance"])', 'fieldset.controls'],
  },
  {
    title: 'Fail-closed: no packet at all',
    text: 'REQUIRED_MISSING_PROVENANCE: a red fail-closed state, an empty compiled column and nothing to copy. The compiler refuses instead of handing over a plausible partial packet.',
    workspace: 'debugger',
    view: 'compare',
    targets: ['[data-testid="fail-closed"]', '[data-testid="column-compiled"]'],
  },
  {
    title: 'Restore it, compile, copy the packet',
    text: 'Switch Remove required provenance off again: the packet is back, and Copy packet gives its text with the manifest header (receipt and fingerprints).',
    workspace: 'debugger',
    view: 'compare',
    targets: ['section[aria-labelledby="export-heading"]'],
  },
];

const TOUR_SCENARIO = 'retry-policy';

/** Starts on the default scenario with every control off, as the walkthrough expects. */
export async function startTour(): Promise<void> {
  const selection = useScenarioStore.getState().workspace?.selection;
  goTo(0);
  if (selection && (selection.scenarioKey !== TOUR_SCENARIO || selection.controls.length > 0 || selection.lateChanges.length > 0)) await selectScenario(TOUR_SCENARIO);
}

export function leaveTour(): void {
  useUiStore.setState({ tourStep: null });
  document.getElementById('tour-start')?.focus();
}

function goTo(step: number): void {
  if (step < 0) return;
  if (step >= TOUR_STEPS.length) {
    leaveTour();
    return;
  }
  const target = TOUR_STEPS[step];
  if (!target) return;
  // The step's view opens in the same update, so its target exists when the outline effect runs.
  useUiStore.setState(target.view ? { tourStep: step, workspace: target.workspace, activeView: target.view } : { tourStep: step, workspace: target.workspace });
}

/** Outlines the step's target after the view it lives in is shown. */
function useTarget(step: TourStep | undefined): void {
  useEffect(() => {
    if (!step) return;
    const target = step.targets.map((selector) => document.querySelector<HTMLElement>(selector)).find((element) => element !== null);
    if (!target) return;
    target.dataset.tourTarget = 'true';
    target.scrollIntoView({ block: 'center', behavior: 'instant' });
    return () => {
      delete target.dataset.tourTarget;
    };
  }, [step]);
}

/**
 * The guided tour (region "Guided tour"): one card, fixed at the foot of the screen, that walks through
 * seed 003's eight steps. Next and Back (or the arrow keys inside the card) step; Escape or Leave tour
 * ends it at any step and gives the focus back to the button that started it.
 */
export function Tour() {
  const index = useUiStore((state) => state.tourStep);
  const heading = useRef<HTMLHeadingElement>(null);
  const step = index === null ? undefined : TOUR_STEPS[index];
  useTarget(step);
  const started = index !== null;
  useEffect(() => {
    if (started) heading.current?.focus();
  }, [started]);
  if (index === null || !step) return null;
  const last = index === TOUR_STEPS.length - 1;
  const onKey = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      leaveTour();
    } else if ((event.key === 'ArrowRight' || event.key === 'ArrowLeft') && !(event.target instanceof HTMLInputElement)) {
      event.preventDefault();
      goTo(index + (event.key === 'ArrowRight' ? 1 : -1));
    }
  };
  return (
    <section className="tour" role="region" aria-label="Guided tour" aria-describedby="tour-text" onKeyDown={onKey} data-testid="tour">
      <p className="caption" data-testid="tour-progress">
        Guided tour · step {index + 1} of {TOUR_STEPS.length}
      </p>
      <h2 id="tour-heading" ref={heading} tabIndex={-1}>
        {step.title}
      </h2>
      <p id="tour-text">{step.text}</p>
      <div className="button-row">
        <button type="button" className="secondary" onClick={() => goTo(index - 1)} aria-disabled={index === 0 ? 'true' : undefined}>
          Back
        </button>
        <button type="button" onClick={() => goTo(index + 1)}>
          {last ? 'Finish tour' : 'Next'}
        </button>
        <button type="button" className="secondary" onClick={leaveTour}>
          Leave tour
        </button>
      </div>
      <p className="caption">Arrow keys step through the tour from inside this card; Escape leaves it.</p>
    </section>
  );
}
