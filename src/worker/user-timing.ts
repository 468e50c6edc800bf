/** Leaves a User Timing measure per step, so profiles and the browser benchmark can read worker-side durations. */
export function measured<T>(name: string, work: () => T): T {
  const start = performance.now();
  try {
    return work();
  } finally {
    performance.measure(name, { start, end: performance.now() });
  }
}

export async function measuredAsync<T>(name: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    performance.measure(name, { start, end: performance.now() });
  }
}
