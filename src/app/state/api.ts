import type { CompilerApi } from '../../worker/protocol';

let current: CompilerApi | null = null;
let restart: () => void = () => undefined;

/**
 * The composition root hands in the worker API and a way to replace its worker with a fresh one;
 * tests hand in a fake with the same type.
 */
export function setCompilerApi(api: CompilerApi, restartWorker: () => void = () => undefined): void {
  current = api;
  restart = restartWorker;
}

export function compilerApi(): CompilerApi {
  if (!current) throw new Error('the compiler worker has not been connected');
  return current;
}

/** Ends the current worker and starts another behind the same API. */
export function restartCompilerWorker(): void {
  restart();
}
