import { sha256 } from './test-support/sha256';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../adapters/sqlite/compiler';
import { createCompiler } from './compile';
import type { Store } from './store';
import { buildContract, buildRecord, buildRecordSet, valueOf } from './test-support/builders';
import { freshDriver } from './test-support/node-driver';

const records = [
  buildRecord({ id: 'a', text: 'refund policy' }),
  buildRecord({ id: 'b', text: 'refund weather' }),
  buildRecord({ id: 'c', text: 'refund', scope: 'legal' }),
];

describe('the compiler over a store that answers later', () => {
  it('answers compiles in the order asked, each as a compiler of its own would, however long the store takes', async () => {
    const sqlite = createSqliteStore(await freshDriver());
    // The first admission answers last: without the compiler's queue the second compile would finish first and share
    // its revision.
    const delays = [40, 0, 0, 0];
    const slow: Store = {
      ...sqlite,
      version: sqlite.version,
      admit: async (plan, digest) => {
        const delay = delays.shift() ?? 0;
        await new Promise((resolve) => setTimeout(resolve, delay));
        return sqlite.admit(plan, digest);
      },
    };
    const compiler = createCompiler(sha256, slow);
    const wide = { contract: buildContract({ scopes: ['support', 'legal'] }), recordSet: buildRecordSet(records) };
    const narrow = { contract: buildContract(), recordSet: buildRecordSet(records) };
    const finished: string[] = [];
    const [first, second] = await Promise.all([
      compiler.compile(wide).then((result) => (finished.push('wide'), result)),
      compiler.compile(narrow).then((result) => (finished.push('narrow'), result)),
    ]);
    expect(finished).toEqual(['wide', 'narrow']);
    const fresh = createCompiler(sha256, createSqliteStore(await freshDriver()));
    expect(valueOf(first).receipt).toEqual(valueOf(await fresh.compile(wide)).receipt);
    expect(valueOf(second).receipt).toEqual(valueOf(await fresh.compile(narrow)).receipt);
    expect(valueOf(first).admitted).not.toEqual(valueOf(second).admitted);
  });
});
