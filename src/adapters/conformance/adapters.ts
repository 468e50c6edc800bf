import { sha256InNode } from '../../lib/node-sha256';
import { createSqliteCompiler } from '../sqlite/compiler';
import { createSqliteStore } from '../sqlite/compiler';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { createPostgresAdapter } from '../postgres/postgres-adapter';
import { compileInDatabase } from '../postgres/compile-in-database';
import { loadRecordSet } from '../postgres/load-records';
import type { Database } from '../postgres/schema';
import type { Tokeniser } from '../postgres/tokens';
import type { AdapterUnderTest, ReferenceCompile } from './conformance-suite';

/** The built-in path, as the reference every adapter's receipts are compared with. */
export async function referenceCompile(): Promise<ReferenceCompile> {
  const compiler = createSqliteCompiler(sha256InNode, await openInMemoryDatabase());
  return (request) => compiler.compile(request);
}

/** The SQLite adapter over a record index of its own (not the reference's). */
export async function sqliteUnderTest(): Promise<AdapterUnderTest> {
  const store = createSqliteStore(await openInMemoryDatabase());
  const compiler = createSqliteCompiler(sha256InNode, await openInMemoryDatabase());
  return {
    name: 'sqlite',
    load: async (recordSet) => {
      store.index.sync(recordSet);
    },
    adapter: async () => store,
    compile: (request) => compiler.compile(request),
  };
}

/** The PostgreSQL adapter over the given database and schema, which each case's load replaces. */
export function postgresUnderTest(database: Database, tokeniser: Tokeniser): AdapterUnderTest {
  return {
    name: 'postgresql',
    load: async (recordSet) => {
      const loaded = await loadRecordSet(sha256InNode, database, 'conformance case', recordSet, tokeniser);
      if (!loaded.ok) throw new Error(loaded.error.message);
    },
    adapter: async () => {
      const adapter = await createPostgresAdapter(database);
      if (!adapter.ok) throw new Error(adapter.error.message);
      return adapter.value;
    },
    compile: async (request) => {
      const compiled = await compileInDatabase(
        sha256InNode,
        database,
        request.contract,
        tokeniser,
        {},
        request.attestation ?? 'full',
      );
      return compiled.ok ? { ok: true, value: compiled.value.outcome } : compiled;
    },
  };
}
