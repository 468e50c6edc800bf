/**
 * An object of type `T` whose every method `name` answers `invoke(name, args)`: an API written once, as its type,
 * and forwarded by name, so no layer writes its methods out again. `then` is no method of it, so awaiting the
 * object (or returning it from an async function) does not take it for a promise.
 */
export function forwarding<T extends object>(invoke: (name: string, args: readonly unknown[]) => unknown): T {
  const methods = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy({} as T, {
    get(_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      let method = methods.get(name);
      if (!method) methods.set(name, (method = (...args: unknown[]) => invoke(name, args)));
      return method;
    },
  });
}

/** `T`'s methods as an implementation may answer them: the same arguments, and the result or a promise of it. */
export type Answering<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R | Promise<R> : never;
};

/**
 * Calls `target`'s method `name` with `args`; a name it lacks rejects the call, as a missing method of the API would.
 */
export function callByName(target: object, name: string, args: readonly unknown[]): unknown {
  const method: unknown = Reflect.get(target, name);
  if (typeof method !== 'function') throw new TypeError(`no method "${name}"`);
  return Reflect.apply(method, target, args);
}
