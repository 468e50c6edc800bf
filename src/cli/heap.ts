import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 lets the old generation grow past the live heap before a full collection, at 1.5×.
 * Compiling 100,000 records makes many short-lived 100,000-element arrays, which V8 places straight in the
 * old generation, so between two full collections garbage was most of the peak. The price is more full
 * collections, which only a second compiler built cold over a large heap pays for (the figures and the other
 * caps tried: docs/DECISIONS.md).
 * V8 reads the setting at every collection, so setting it first thing is enough.
 */
export function capHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}
