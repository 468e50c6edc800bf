/** One started worker as the supervisor sees it. */
export interface WorkerConnection<R> {
  readonly remote: R;
  /** Settles with a reason once the worker has ended or broken for good; never rejects. */
  readonly lost: Promise<string>;
  /** Ends the worker on purpose; `lost` then settles. */
  terminate(): void;
}

/** A call was made to a worker that ended before it answered. */
export class WorkerLostError extends Error {
  constructor(readonly reason: string) {
    super(`The compiler stopped: ${reason}`);
    this.name = 'WorkerLostError';
  }
}

export interface WorkerSupervisor<R> {
  /** Runs a call on the current worker; rejects with WorkerLostError if that worker ends first. */
  call<T>(run: (remote: R) => T): Promise<Awaited<T>>;
  /** Ends the current worker and starts a fresh one; calls still waiting on the old one are rejected. */
  restart(): void;
}

/**
 * Keeps one worker at a time. A call to a worker that is gone rejects at once instead of waiting
 * forever (comlink would wait: a dead worker never answers), and `onLost` hears of every worker that
 * ends without being asked to, so the page can say so and start another.
 */
export function createWorkerSupervisor<R>(
  connect: () => WorkerConnection<R>,
  onLost: (reason: string) => void,
): WorkerSupervisor<R> {
  const open = () => {
    const connection = connect();
    const gone = connection.lost.then((reason): never => {
      throw new WorkerLostError(reason);
    });
    // Nobody may be waiting on the worker when it ends; that rejection is then expected, not unhandled.
    gone.catch(() => undefined);
    void connection.lost.then((reason) => {
      if (current.connection === connection) onLost(reason);
    });
    return { connection, gone };
  };
  let current = open();
  return {
    call(run) {
      const { connection, gone } = current;
      let answer: Promise<Awaited<ReturnType<typeof run>>>;
      try {
        answer = Promise.resolve(run(connection.remote));
      } catch (error) {
        // comlink throws before sending when an argument cannot be copied; that is a failed call too.
        answer = Promise.reject(error);
      }
      return Promise.race([answer, gone]);
    },
    restart() {
      const old = current;
      current = open();
      old.connection.terminate();
    },
  };
}
