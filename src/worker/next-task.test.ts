import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTask } from './next-task';

describe('nextTask', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is not a timer (a nested timeout is clamped to 4 ms): it resolves with every timer held', async () => {
    vi.useFakeTimers();
    for (let step = 0; step < 50; step += 1) await nextTask();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves its waiters in the order they asked, each in a task after the current one', async () => {
    const order: string[] = [];
    const waits = [1, 2, 3].map((waiter) => nextTask().then(() => order.push(`task ${waiter}`)));
    await Promise.resolve();
    order.push('same task');
    await Promise.all(waits);
    expect(order).toEqual(['same task', 'task 1', 'task 2', 'task 3']);
  });
});
