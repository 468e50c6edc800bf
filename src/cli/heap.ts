import { setFlagsFromString } from 'node:v8';

/**
 * Commands that read their input in bounded memory (a load streams its file in batches): their garbage is young and
 * their live heap small, so a cap on heap growth would only make full collections frequent (docs/ADAPTERS.md, the
 * reload).
 */
const STREAMING_COMMANDS: ReadonlySet<string> = new Set(['load']);

/** Whether `command` runs with the cap on heap growth: every command but those that stream. */
export const capsHeapGrowth = (command: string | undefined): boolean =>
  command === undefined || !STREAMING_COMMANDS.has(command);

/**
 * Caps how far V8 lets the old generation grow past the live heap before a full collection, at 1.5×, for a command
 * that holds its input whole. Compiling 100,000 records makes many short-lived 100,000-element arrays, which V8 places
 * straight in the old generation, so between two full collections garbage was most of the peak. The price is more
 * full collections, which only a second compiler built cold over a large heap pays for (the figures and the other caps
 * tried: docs/DECISIONS.md). V8 reads the setting at every collection, so setting it first thing is enough.
 */
export function capHeapGrowth(command: string | undefined): void {
  if (capsHeapGrowth(command)) setFlagsFromString('--heap-growing-percent=50');
}
