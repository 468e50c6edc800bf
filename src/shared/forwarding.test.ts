import { describe, expect, it } from 'vitest';
import { callByName, forwarding } from './forwarding';

interface Api {
  add(a: number, b: number): Promise<number>;
  greet(name: string): Promise<string>;
}

describe('forwarding', () => {
  it('answers every method by name with its arguments, one function per name', async () => {
    const calls: [string, readonly unknown[]][] = [];
    const api = forwarding<Api>((name, args) => {
      calls.push([name, args]);
      return Promise.resolve(name === 'add' ? Number(args[0]) + Number(args[1]) : `hello ${String(args[0])}`);
    });
    expect(await api.add(2, 3)).toBe(5);
    expect(await api.greet('Ada')).toBe('hello Ada');
    expect(calls).toEqual([
      ['add', [2, 3]],
      ['greet', ['Ada']],
    ]);
    expect(api.add).toBe(api.add);
  });

  it('is not taken for a promise', async () => {
    const api = forwarding<Api>(() => Promise.resolve(0));
    expect(await Promise.resolve(api)).toBe(api);
  });

  it('calls a target by name, and refuses a name it lacks', () => {
    const target = {
      twice: (n: number) => 2 * n,
      base: 10,
      plus(n: number) {
        return this.base + n;
      },
    };
    expect(callByName(target, 'twice', [4])).toBe(8);
    expect(callByName(target, 'plus', [1])).toBe(11);
    expect(() => callByName(target, 'base', [])).toThrow('no method "base"');
    expect(() => callByName(target, 'missing', [])).toThrow('no method "missing"');
  });
});
