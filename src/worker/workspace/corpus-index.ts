import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import type { LoadProgress } from '../protocol';
import { nextTask } from '../next-task';

/**
 * Records indexed per step of a load or of the background whole-corpus index, so a toggle or a cancel sent
 * meanwhile waits for one step at most (docs/DECISIONS.md).
 */
export const INDEX_SLICE = 1_000;
/**
 * Below this many records the whole-corpus index is built at once: it takes less time than a round trip to show
 * progress.
 */
export const BACKGROUND_CORPUS_FROM = 5_000;

export interface CorpusIndexDeps {
  readonly compiler: SqliteCompiler;
}

/** The scenario last compiled, whose records the index is built for; null before any compilation or while one runs. */
export type LastScenario = () => string | null;

export type CorpusIndex = ReturnType<typeof createCorpusIndex>;

/**
 * The whole-corpus index the baselines rank over, built for the records last compiled a slice per task in the
 * background, and whoever waits for the baselines woken when it is complete. A load's sliced index interrupts it
 * (`invalidate`); the next compilation starts it again.
 */
export function createCorpusIndex({ compiler }: CorpusIndexDeps) {
  /** Told when the index was completed by building some of it: the database's image should take it in. */
  const built = new Set<() => void>();
  /** The scenario whose records the whole-corpus index holds in full; null while it is being built or after a load. */
  let corpusFor: string | null = null;
  let job: Promise<void> | null = null;
  let progress: LoadProgress | null = null;
  const listeners = new Set<(progress: { done: number; total: number }) => void>();
  let waiters: (() => void)[] = [];

  const ensure = (lastScenario: LastScenario): void => {
    if (job !== null) return;
    job = (async () => {
      try {
        // The compilation that asked answers first: the packet must not wait for even one slice.
        await nextTask();
        const steps = compiler.indexCorpusSteps(INDEX_SLICE);
        let indexed = false;
        for (;;) {
          const step = steps.next();
          if (step.done) {
            const scenario = lastScenario();
            if (step.value && scenario !== null) {
              corpusFor = scenario;
              // The baselines' index is the slowest part to build again: a reload should find it (one that found it
              // complete writes nothing).
              if (indexed) for (const tell of built) tell();
              const waiting = waiters;
              waiters = [];
              for (const wake of waiting) wake();
            }
            return;
          }
          indexed = true;
          progress = { file: lastScenario() ?? '', phase: 'indexing', ...step.value };
          for (const listener of listeners) listener(step.value);
          await nextTask();
        }
      } catch {
        // Only running out of memory could throw here: the baselines stay unavailable until the next compilation asks
        // again.
      } finally {
        job = null;
        progress = null;
      }
    })();
  };

  return {
    ensure,
    /** `tell` hears of every index completed by building some of it (the background saves then save the image). */
    onBuilt(tell: () => void): void {
      built.add(tell);
    },
    /**
     * Another scenario's records were written to the record index: the whole-corpus index no longer holds them in full.
     */
    invalidate(): void {
      corpusFor = null;
    },
    /**
     * Whether the baselines of `scenarioKey`'s `records` can be worked out now without indexing most of the corpus on
     * the spot.
     */
    atHand(scenarioKey: string, records: number): boolean {
      return corpusFor === scenarioKey || records < BACKGROUND_CORPUS_FROM;
    },
    /** How far the background index is, for the view that waits for it. */
    progress(): LoadProgress | null {
      return progress;
    },
    /** Resolves once no background index is being built (the record store and the image give way to it). */
    async idle(): Promise<void> {
      while (job !== null) await job;
    },
    /** Resolves once the index is complete, telling `onProgress` of every step meanwhile. */
    async complete(
      lastScenario: LastScenario,
      onProgress: (progress: { done: number; total: number }) => void,
    ): Promise<void> {
      listeners.add(onProgress);
      try {
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          ensure(lastScenario);
        });
      } finally {
        listeners.delete(onProgress);
      }
    },
  };
}
