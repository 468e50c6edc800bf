import { createCompiler } from '../../core/compile';
import type { AdmissionAdapter, RemoteAdmissionAdapter } from '../../core/plan/adapter';
import { createRecordIndex } from '../../core/search/record-index';
import { createSqliteAdapter } from '../../core/search/sqlite-adapter';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { createPostgresAdapter } from '../postgres/adapter';
import { compileInDatabase } from '../postgres/compile';
import { loadRecordSet } from '../postgres/load';
import type { Database } from '../postgres/schema';
import type { Tokeniser } from '../postgres/tokens';
import type { AdapterUnderTest, ReferenceCompile } from './suite';

/** A same-call adapter seen through the remote interface, so the suite drives every adapter alike. */
export function asRemote(adapter: AdmissionAdapter): RemoteAdmissionAdapter {
  return {
    name: adapter.name,
    adapterVersion: adapter.adapterVersion,
    version: adapter.version,
    capabilities: adapter.capabilities,
    operators: adapter.operators,
    admit: async (plan, digest) => adapter.admit(plan, digest),
  };
}

/** The built-in path, as the reference every adapter's receipts are compared with. */
export async function referenceCompile(): Promise<ReferenceCompile> {
  const compiler = createCompiler(await openInMemoryDatabase());
  return (request) => compiler.compile(request);
}

/** The SQLite adapter over a record index of its own (not the reference's). */
export async function sqliteUnderTest(): Promise<AdapterUnderTest> {
  const driver = await openInMemoryDatabase();
  const index = createRecordIndex(driver);
  const compiler = createCompiler(await openInMemoryDatabase());
  return {
    name: 'sqlite',
    load: async (recordSet) => {
      index.sync(recordSet);
    },
    adapter: async () => asRemote(createSqliteAdapter(index, driver)),
    compile: async (request) => compiler.compile(request),
  };
}

/** The PostgreSQL adapter over the given database and schema, which each case's load replaces. */
export function postgresUnderTest(database: Database, tokeniser: Tokeniser): AdapterUnderTest {
  return {
    name: 'postgresql',
    load: async (recordSet) => {
      const loaded = await loadRecordSet(database, 'conformance case', recordSet, tokeniser);
      if (!loaded.ok) throw new Error(loaded.error.message);
    },
    adapter: async () => {
      const adapter = await createPostgresAdapter(database);
      if (!adapter.ok) throw new Error(adapter.error.message);
      return adapter.value;
    },
    compile: async (request) => {
      const compiled = await compileInDatabase(database, request.contract, tokeniser);
      return compiled.ok ? { ok: true, value: compiled.value.outcome } : compiled;
    },
  };
}
