import type { TraceFilter } from '../worker/protocol';

// Both sides use these: the page asks for pages, and the worker remembers the first one for the next boot.
// They live apart from protocol.ts, whose zod schemas the page must not load.

/** Rows are fetched from the worker a page at a time, as they scroll into view. */
export const TRACE_PAGE_SIZE = 200;

/** The trace's order and filter when a page opens. */
export const DEFAULT_TRACE_QUERY: Omit<TraceFilter, 'audience'> = {
  sortKey: 'order',
  descending: false,
  decision: 'all',
  code: 'all',
  text: '',
};
