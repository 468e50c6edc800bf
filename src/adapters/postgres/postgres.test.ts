import { sha256 } from '../../core/test-support/sha256';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readScenarioFile } from '../../cli/read-scenario';
import { createSqliteCompiler } from '../sqlite/compiler';
import { receiptIdOf, serialiseReceipt } from '../../core/phases/7-attest/attest';
import { SQLITE_ADAPTER_VERSION } from '../sqlite/compiler';
import { BUILTIN_SCENARIOS, builtinScenarioPath } from '../../scenarios/builtin';
import { prepareScenario } from '../../core/compile';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { namingAdapterOf } from '../conformance/conformance-suite';
import { compileInDatabase } from './compile-in-database';
import type { Connection } from './connect';
import { loadRecordSet } from './load-records';
import { openTestDatabase, POSTGRES_URL } from './test-server';
import { type Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe.skipIf(POSTGRES_URL === undefined)('the PostgreSQL adapter on the built-in scenarios', () => {
  let database: Connection;
  let tokeniser: Tokeniser;
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });

  for (const { id } of BUILTIN_SCENARIOS) {
    it(`${id}: load then compile in the database gives the built-in path's receipt, byte for byte but for the adapter it names`, async () => {
      const loaded = await readScenarioFile(`${repoRoot}${builtinScenarioPath(id)}`);
      if (!loaded.ok) throw new Error(loaded.error.message);
      const request = prepareScenario(sha256, loaded.value, { controls: [], lateChanges: [] });
      if (!request.ok) throw new Error(request.error.message);
      const report = await loadRecordSet(sha256, database, 'records.jsonl', request.value.recordSet, tokeniser);
      expect(report.ok && report.value.inserted + report.value.updated).toBeGreaterThan(0);
      const again = await loadRecordSet(sha256, database, 'records.jsonl', request.value.recordSet, tokeniser);
      expect(again.ok && again.value).toMatchObject({
        inserted: 0,
        updated: 0,
        deleted: 0,
        unchanged: request.value.recordSet.checked.length,
      });

      const builtin = await createSqliteCompiler(sha256, await openInMemoryDatabase()).compile({
        contract: request.value.contract,
        recordSet: request.value.recordSet,
      });
      const inDatabase = await compileInDatabase(sha256, database, request.value.contract, tokeniser, {}, 'full');
      if (!builtin.ok || !inDatabase.ok)
        throw new Error(`${builtin.ok ? '' : builtin.error.message} ${inDatabase.ok ? '' : inDatabase.error.message}`);
      const { receiptId, ...body } = inDatabase.value.outcome.receipt;
      expect(body.executedBy).toEqual({
        adapter: 'postgresql',
        adapterVersion: '1',
        planDigest: builtin.value.receipt.executedBy.planDigest,
      });
      expect(builtin.value.receipt.executedBy).toMatchObject({
        adapter: 'sqlite',
        adapterVersion: SQLITE_ADAPTER_VERSION,
      });
      expect(receiptId).toBe(receiptIdOf(sha256, body));
      expect(serialiseReceipt(namingAdapterOf(inDatabase.value.outcome.receipt, builtin.value.receipt))).toBe(
        serialiseReceipt(builtin.value.receipt),
      );
      expect(inDatabase.value.adapter).toMatchObject({
        name: 'postgresql',
        predicateDigest: expect.stringMatching(/^sha256:/),
      });

      // The default, a candidates receipt, reads no refused record: still the built-in path's candidates receipt.
      const builtinCandidates = await createSqliteCompiler(sha256, await openInMemoryDatabase()).compile({
        ...request.value,
        attestation: 'candidates',
      });
      const answered = await compileInDatabase(sha256, database, request.value.contract, tokeniser);
      if (!builtinCandidates.ok || !answered.ok)
        throw new Error(
          `${builtinCandidates.ok ? '' : builtinCandidates.error.message} ${answered.ok ? '' : answered.error.message}`,
        );
      expect(answered.value.outcome.receipt.attestation).toBe('candidates');
      expect(serialiseReceipt(namingAdapterOf(answered.value.outcome.receipt, builtinCandidates.value.receipt))).toBe(
        serialiseReceipt(builtinCandidates.value.receipt),
      );
      expect(answered.value.outcome.counts).toEqual(builtinCandidates.value.counts);
    });
  }
});
