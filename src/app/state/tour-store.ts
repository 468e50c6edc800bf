import { create } from 'zustand';
import type { Observation } from '../components/tour-check';
import type { TourStep } from '../components/tour-steps';

export interface RunningTour {
  readonly scenarioKey: string;
  readonly steps: readonly TourStep[];
  readonly index: number;
  /** The screen as the step began, to say what its action changed; null until a compilation settles. */
  readonly before: Observation | null;
  /** Next was pressed before the step was done: the card says why it did not advance. */
  readonly refused: boolean;
}

export const useTourStore = create<{ readonly running: RunningTour | null }>(() => ({ running: null }));
