import fc from 'fast-check';
import { describe, it } from 'vitest';
import { propertyParameters } from './test-support/arbitraries';
import { freshDriver } from './test-support/node-driver';
import { propertyNamed } from './test-support/property-registry';

/** The property lives in the registry, so `npm run fuzz -- --property incremental-equals-fresh` runs the same one for millions of cases. */
const incremental = propertyNamed('incremental-equals-fresh');
const TIMEOUT_MS = 240_000;

describe('a compiler that reuses its previous work', () => {
  it(
    'produces exactly what a fresh compiler on a fresh database produces, step after step',
    async () => {
      await fc.assert(await incremental.property({ openDatabase: freshDriver }), propertyParameters(incremental.testRuns));
    },
    TIMEOUT_MS,
  );
});
