import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { createCompiler, type Compiler } from './compile';
import { propertyParameters } from './test-support/arbitraries';
import { freshDriver, sharedDriver } from './test-support/node-driver';
import { propertyNamed } from './test-support/property-registry';
import type { SqlDriver } from './search/driver';

/** The property lives in the registry, so `npm run fuzz -- --property incremental-equals-fresh` runs the same one for millions of cases. */
const incremental = propertyNamed('incremental-equals-fresh');
const TIMEOUT_MS = 240_000;

let driver: SqlDriver;
let kept: Compiler;

beforeAll(async () => {
  driver = await sharedDriver();
  kept = createCompiler(driver);
});

describe('a compiler that reuses its previous work', () => {
  it(
    'produces exactly what a fresh compiler on a fresh database produces, step after step',
    async () => {
      await fc.assert(incremental.property({ driver, compiler: kept, freshDriver }), propertyParameters(incremental.testRuns));
    },
    TIMEOUT_MS,
  );
});
