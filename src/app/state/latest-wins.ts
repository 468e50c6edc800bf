/**
 * Compilations asked for while one is on its way coalesce: the latest state wins. Every request marks the inputs
 * as wanted; one run at a time sends them, after every change of the inputs already sent to the worker (a toggle's
 * `select`) has been answered, so a burst of clicks is compiled once, as it ends. A request superseded before it
 * was sent is never sent; the answer to one superseded while it compiled (by a request, or by a change of the inputs
 * still on its way) is dropped, so no intermediate state is ever shown as the answer: of a burst of slow compiles,
 * only the one already compiling and the last run, not each in turn (docs/DECISIONS.md).
 */
export interface LatestWins {
  /** Resolves once the inputs as they are now (or later ones) have been compiled and shown, or have failed. */
  request(): Promise<void>;
  /** Keeps a request that changes the inputs in the worker: no compilation is sent until it has been answered. */
  changing<T>(change: Promise<T>): Promise<T>;
}

/**
 * `compileOnce(superseded)` sends one compilation and shows its answer unless `superseded()` says a newer state is
 * wanted.
 */
export function createLatestWins(compileOnce: (superseded: () => boolean) => Promise<void>): LatestWins {
  let wanted = false;
  let running: Promise<void> | null = null;
  const changes = new Set<Promise<unknown>>();

  const drain = async (): Promise<void> => {
    try {
      while (wanted) {
        wanted = false;
        while (changes.size > 0) await Promise.allSettled([...changes]);
        // Superseded while the changes were being answered: only the newest request is sent.
        if (wanted) continue;
        // An answer is superseded by a request made since, or by a change still on its way (its request follows it).
        await compileOnce(() => wanted || changes.size > 0);
      }
    } finally {
      // Cleared in the same step as the last check of `wanted`: a request made after it starts a run of its own.
      running = null;
    }
  };

  return {
    request() {
      wanted = true;
      running ??= drain();
      return running;
    },
    changing(change) {
      changes.add(change);
      const settled = () => changes.delete(change);
      change.then(settled, settled);
      return change;
    },
  };
}
