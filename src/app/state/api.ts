import type { CompilerApi } from '../../worker/protocol';

let current: CompilerApi | null = null;

/** The composition root hands in the worker proxy; tests hand in a fake with the same type. */
export function setCompilerApi(api: CompilerApi): void {
  current = api;
}

export function compilerApi(): CompilerApi {
  if (!current) throw new Error('the compiler worker has not been connected');
  return current;
}
