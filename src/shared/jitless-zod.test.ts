import { describe, expect, it } from 'vitest';
import './jitless-zod';

describe('jitless zod', () => {
  it('is on before any schema is built, so parsing never constructs a Function', async () => {
    const { contractSchema } = await import('../core/format/contract');
    const { scenarioSchema } = await import('../core/format/scenario');
    const real = globalThis.Function;
    let constructed = 0;
    globalThis.Function = new Proxy(real, {
      construct(target, args) {
        constructed += 1;
        return Reflect.construct(target, args) as object;
      },
    });
    try {
      contractSchema.safeParse({ task: 'x' });
      scenarioSchema.safeParse({ id: 'x' });
    } finally {
      globalThis.Function = real;
    }
    expect(constructed).toBe(0);
  });
});
