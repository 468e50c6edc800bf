import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useDrillStore } from '../state/drill-store';
import { useResultStore } from '../state/result-store';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';
import { leaveTour, nextStep, previousStep, screenFrom, settleBefore } from '../state/tour-actions';
import { useTourStore } from '../state/tour-store';
import { useUiStore } from '../state/ui-store';
import { askOf, stepState, type StepState } from './tour-check';
import { GAP, placeCard, type Placement } from './tour-position';
import { targetsOf, type TourStep } from './tour-steps';

/** A target taller than this share of the viewport leaves the card no room beside it: a smaller one is outlined. */
const TALLEST_TARGET = 0.55;

function findTarget(selectors: readonly string[]): HTMLElement | null {
  const found = selectors
    .map((selector) => document.querySelector<HTMLElement>(selector))
    .filter((element) => element !== null);
  return (
    found.find((element) => element.getBoundingClientRect().height <= window.innerHeight * TALLEST_TARGET) ??
    found[found.length - 1] ??
    null
  );
}

/** The element the step points at, outlined and scrolled into view; the card placed beside it, never over it. */
function useTargetAndPlacement(
  step: TourStep | undefined,
  state: StepState | null,
  card: RefObject<HTMLElement | null>,
): { placement: Placement | null; target: HTMLElement | null } {
  const [placement, setPlacement] = useState<Placement | null>(null);
  const [target, setTarget] = useState<HTMLElement | null>(null);
  const workspace = useUiStore((ui) => ui.workspace);
  const activeView = useUiStore((ui) => ui.activeView);
  const response = useResultStore((result) => result.response);
  const done = state?.done ?? false;
  // What the card says decides its height, so the card is placed again whenever it changes.
  const content = state ? (state.done ? state.text : state.why) : '';
  const observed = state?.done ? state.observed : null;
  const before = useTourStore((tour) => tour.running?.before ?? null);
  const selectors = useMemo(() => {
    if (!step) return [];
    const naiveIds = new Set(before?.naive.map((entry) => entry.id) ?? []);
    const newcomer = step.expect?.inNaive?.[0] ?? observed?.naive.find((entry) => !naiveIds.has(entry.id))?.id;
    const packetNewcomer = observed?.packet.find((id) => !before?.packet.includes(id));
    const entered = newcomer
      ? { kind: 'naive' as const, id: newcomer }
      : packetNewcomer
        ? { kind: 'compiled' as const, id: packetNewcomer }
        : null;
    return targetsOf(step, done, { failedClosed: observed?.status === 'fail_closed', entered });
  }, [step, done, observed, before]);

  useLayoutEffect(() => {
    const found = findTarget(selectors);
    setTarget(found);
    if (!found) return;
    found.dataset.tourTarget = 'true';
    found.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    return () => {
      delete found.dataset.tourTarget;
    };
    // The views the target lives in and the result it shows decide whether it exists yet.
  }, [selectors, workspace, activeView, response]);

  useLayoutEffect(() => {
    const element = card.current;
    if (!element) return;
    let frame = 0;
    const place = (scrolled: boolean) => {
      const natural = {
        width: element.offsetWidth,
        height: element.scrollHeight + element.offsetHeight - element.clientHeight,
      };
      const viewport = { width: document.documentElement.clientWidth, height: window.innerHeight };
      const rect = target?.getBoundingClientRect() ?? null;
      const next = placeCard(rect, natural, viewport);
      // No side has room for the whole card: the page scrolls the target up once, so the card fits below it.
      if (next.shortened && !scrolled && rect && rect.top > GAP) {
        window.scrollBy({ top: rect.top - GAP, behavior: 'instant' });
        place(true);
        return;
      }
      setPlacement((last) =>
        last && last.top === next.top && last.left === next.left && last.maxHeight === next.maxHeight ? last : next,
      );
    };
    const soon = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => place(true));
    };
    place(false);
    const resized = new ResizeObserver(soon);
    resized.observe(element);
    if (target) resized.observe(target);
    window.addEventListener('scroll', soon, { capture: true, passive: true });
    window.addEventListener('resize', soon);
    return () => {
      cancelAnimationFrame(frame);
      resized.disconnect();
      window.removeEventListener('scroll', soon, { capture: true });
      window.removeEventListener('resize', soon);
    };
  }, [target, card, content]);
  return { placement, target };
}

/** Moves the focus to the control the step asks for (or the target itself), for the keyboard. */
function focusTarget(target: HTMLElement | null): void {
  if (!target) return;
  const control = target.matches('input, button, select, a[href]')
    ? target
    : target.querySelector<HTMLElement>('input, button, select, a[href]');
  if (control) control.focus();
  else {
    target.tabIndex = -1;
    target.focus();
  }
}

/**
 * The guided tour (region "Guided tour"): one card per step, beside what the step points at. Each step asks for
 * one action and says what it shows only once the screen shows the action done; Next refuses until then and says
 * why. Back and Next (or the arrow keys inside the card) step; Escape or Leave tour ends it.
 */
export function Tour() {
  const running = useTourStore((tour) => tour.running);
  const audience = useUiStore((ui) => ui.audience);
  const scenario = useScenarioStore(selectedScenario);
  const result = useResultStore();
  const drill = useDrillStore();
  const heading = useRef<HTMLHeadingElement>(null);
  const card = useRef<HTMLElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  // Set by "Go to it": once the action is done there, the focus comes back to Next.
  const wentToTarget = useRef(false);
  const screen = useMemo(() => screenFrom({ audience, scenario, result, drill }), [audience, scenario, result, drill]);
  const step = running?.steps[running.index];
  const state = step && screen ? stepState(step, screen, running?.before ?? null) : null;
  const { placement, target } = useTargetAndPlacement(step, state, card);
  const started = running !== null;

  useEffect(() => {
    if (started) heading.current?.focus();
  }, [started]);
  useEffect(settleBefore, [screen, running?.index]);
  // Another scenario has other controls: this tour cannot go on.
  const otherScenario = running !== null && scenario !== null && scenario.key !== running.scenarioKey;
  useEffect(() => {
    if (otherScenario) leaveTour({ refocus: false });
  }, [otherScenario]);
  // On a narrow screen a control's effect is in the Compare tab, not beside the control.
  const switched = state?.done === true && (step?.action.do === 'switchOn' || step?.action.do === 'switchOff');
  useEffect(() => {
    if (switched) useUiStore.setState({ activeView: 'compare' });
  }, [switched, running?.index]);
  const done = state?.done === true;
  useEffect(() => {
    if (!done || !wentToTarget.current) return;
    wentToTarget.current = false;
    next.current?.focus();
  }, [done]);

  if (running?.steps.length === 0) {
    return (
      <section
        ref={card}
        className="tour"
        role="region"
        aria-label="Guided tour"
        aria-describedby="tour-text"
        onKeyDown={(event) => event.key === 'Escape' && leaveTour()}
        data-testid="tour"
      >
        <h2 id="tour-heading" ref={heading} tabIndex={-1}>
          Nothing to try here
        </h2>
        <p id="tour-text">
          This scenario has no controls and no late changes: there is no action for a tour to ask for.
        </p>
        <button type="button" className="secondary" onClick={() => leaveTour()}>
          Leave tour
        </button>
      </section>
    );
  }
  if (!running || !step || !screen || !state) return null;
  const last = running.index === running.steps.length - 1;
  const diagnostic = screen.audience === 'diagnostic';
  const onKey = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      leaveTour();
    } else if (
      (event.key === 'ArrowRight' || event.key === 'ArrowLeft') &&
      !(event.target instanceof HTMLInputElement)
    ) {
      event.preventDefault();
      if (event.key === 'ArrowRight') nextStep();
      else previousStep();
    }
  };
  const style = placement ? { top: placement.top, left: placement.left, maxHeight: placement.maxHeight } : undefined;
  return (
    <section
      ref={card}
      className={placement ? 'tour placed' : 'tour'}
      style={style}
      role="region"
      aria-label="Guided tour"
      aria-describedby="tour-text"
      onKeyDown={onKey}
      data-testid="tour"
      data-step-done={state.done ? 'true' : 'false'}
    >
      <p className="caption" data-testid="tour-progress">
        Guided tour · step {running.index + 1} of {running.steps.length}
      </p>
      <h2 id="tour-heading" ref={heading} tabIndex={-1}>
        {diagnostic ? step.title : 'The tour runs in the diagnostic view'}
      </h2>
      <div aria-live="polite">
        {!diagnostic ? (
          <p id="tour-text">
            Choose Diagnostic view above the trace to go on: the tour compares with the naive top-k, which the user view
            does not show.
          </p>
        ) : state.done ? (
          <p
            id="tour-text"
            className={state.held ? 'tour-shows' : 'tour-shows tour-unexpected'}
            data-testid="tour-shows"
          >
            {state.text}
          </p>
        ) : (
          <p id="tour-text" data-testid="tour-ask">
            <strong>Your turn:</strong> {askOf(screen.scenario, step.action)}
          </p>
        )}
      </div>
      {!state.done && running.refused ? (
        <p className="tour-refusal" role="status" data-testid="tour-refusal">
          Not yet: {state.why}
        </p>
      ) : null}
      <div className="button-row">
        <button
          type="button"
          className="secondary"
          onClick={previousStep}
          aria-disabled={running.index === 0 ? 'true' : undefined}
        >
          Back
        </button>
        <button type="button" ref={next} onClick={nextStep} aria-disabled={state.done ? undefined : 'true'}>
          {last ? 'Finish tour' : 'Next'}
        </button>
        {!state.done && diagnostic ? (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              wentToTarget.current = true;
              focusTarget(target);
            }}
          >
            Go to it
          </button>
        ) : null}
        <button type="button" className="secondary" onClick={() => leaveTour()}>
          Leave tour
        </button>
      </div>
      <p className="caption">Arrow keys step through the tour from inside this card; Escape leaves it.</p>
    </section>
  );
}
