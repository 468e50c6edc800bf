import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 lets the old generation grow past the live heap before a full collection, at 1.5×.
 * Compiling 100,000 records makes many short-lived 100,000-element arrays, which V8 places straight in the
 * old generation, so between two full collections garbage was most of the peak: the benchmark's session at
 * 100,000 records, ≈ 314 MB live, let the heap reach 846 MB (2.7×) and the process 1.5 GB RSS; with the cap
 * it reaches 550 MB and 0.87 GB. The price is more full collections: a second compiler built cold over a
 * large heap takes 15–30 % longer; reading a file, its first compile, toggles and gate changes do not move
 * beyond the machine's spread (docs/PERFORMANCE.md, which also gives 1.6×, 1.75× and 2×).
 * V8 reads the setting at every collection, so setting it first thing is enough.
 */
export function capHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}
