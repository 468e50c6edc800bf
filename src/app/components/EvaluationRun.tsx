import { useLayoutEffect, useRef, type ReactNode } from 'react';
import type { EvaluationExperiment } from '../../worker/protocol';
import {
  cancelExperiment,
  useEvaluationStore,
  type ExperimentResult,
  type RunningExperiment,
} from '../state/evaluation-store';
import { SteadyButton } from './SteadyButton';

/** What every experiment of the Evaluation view shares: its run button, its progress and cancel, its outcome. */

export const EXPERIMENT_TITLES: Record<EvaluationExperiment, string> = {
  seed000: 'Seed 000 comparison',
  scenario: 'Current scenario comparison',
  growth: 'Growth experiment',
  foundation: 'Retrieval foundation',
};

export function Progress({ experiment }: { experiment: EvaluationExperiment }) {
  const running = useEvaluationStore((state) => state.running);
  if (running?.experiment !== experiment) return null;
  return <ProgressBar experiment={experiment} running={running} />;
}

function ProgressBar({ experiment, running }: { experiment: EvaluationExperiment; running: RunningExperiment }) {
  const box = useRef<HTMLDivElement>(null);
  // The Cancel button goes away with the run: if it had the focus, the experiment's run button takes it.
  useLayoutEffect(() => {
    const element = box.current;
    return () => {
      if (!element?.contains(document.activeElement)) return;
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-testid="run-${experiment}"]`)?.focus());
    };
  }, [experiment]);
  const progress = running.progress;
  const value = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  const step = running.cancelling ? 'Cancelling after the current step…' : (progress?.step ?? 'Starting…');
  return (
    <div className="evaluation-progress" data-testid={`progress-${experiment}`} ref={box}>
      <div
        role="progressbar"
        aria-label={`${EXPERIMENT_TITLES[experiment]} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={`${value} %: ${step}`}
        className="progress-track"
      >
        <div className="progress-fill" style={{ width: `${value}%` }} />
      </div>
      <span className="caption" aria-live="polite">
        {value} % · {step}
      </span>
      <SteadyButton className="secondary" onClick={() => void cancelExperiment()} unavailable={running.cancelling}>
        Cancel experiment
      </SteadyButton>
    </div>
  );
}

export function RunButton({
  experiment,
  label,
  onRun,
  disabled = false,
}: {
  experiment: EvaluationExperiment;
  label: string;
  onRun: () => Promise<void>;
  disabled?: boolean;
}) {
  const busy = useEvaluationStore((state) => state.running !== null);
  return (
    <SteadyButton onClick={() => void onRun()} unavailable={busy || disabled} data-testid={`run-${experiment}`}>
      {label}
    </SteadyButton>
  );
}

/** The result area shared by every experiment: nothing yet, the failure, a cancel, or the report. */
export function Outcome<T>({
  experiment,
  result,
  render,
}: {
  experiment: EvaluationExperiment;
  result: ExperimentResult<T>;
  render: (report: T, elapsedMs: number | null) => ReactNode;
}) {
  switch (result.status) {
    case 'none':
      return null;
    case 'failed':
      return (
        <p className="fail-closed evaluation-error" role="alert" data-testid={`error-${experiment}`}>
          {result.message}
        </p>
      );
    case 'cancelled':
      return (
        <>
          <p role="status" className="caption" data-testid={`cancelled-${experiment}`}>
            {result.partial
              ? 'Cancelled: only the sizes finished before the run stopped are shown.'
              : 'Cancelled before any result.'}
          </p>
          {result.partial ? render(result.partial, null) : null}
        </>
      );
    case 'done':
      return <>{render(result.report, result.elapsedMs)}</>;
  }
}
