import { sha256 } from '../../core/test-support/sha256';
import { describe, expect, it } from 'vitest';
import { benchContract, generateRecords, toJsonl } from '../../../bench/generate-records';
import { createSqliteCompiler } from '../../adapters/sqlite/compiler';
import { validateContract, createJsonlRecordReader, type RecordSet } from '../../core/phases/1-validate/validate';
import { serialiseReceipt } from '../../core/phases/7-attest/attest';
import { valueOf } from '../../core/test-support/builders';
import { freshDriver } from '../../core/test-support/node-driver';
import { createRecordStore } from './record-store';

function parsed(name: string, size: number): { recordSet: RecordSet; requiredIds: readonly string[] } {
  const corpus = generateRecords(size, 11);
  const reader = createJsonlRecordReader(sha256, name);
  reader.push(toJsonl(corpus.records));
  return { recordSet: valueOf(reader.finish()), requiredIds: corpus.requiredIds };
}

const drain = (steps: Generator<unknown, void>) => [...{ [Symbol.iterator]: () => steps }];

describe('the record store', () => {
  it('gives back what validation established, in file order, and the same receipt bytes as the parsed file', async () => {
    const { recordSet, requiredIds } = parsed('big.jsonl', 2_345);
    const driver = await freshDriver();
    const store = createRecordStore(driver);
    const progress = drain(store.writeSteps('load-1', 'big.jsonl', recordSet, 1_000));
    expect(progress).toHaveLength(3);
    const restored = store.read('load-1')?.get('big.jsonl');
    if (!restored) throw new Error('the stored set was not read back');
    expect(restored.checked).toEqual(recordSet.checked);
    expect([...restored.locations]).toEqual([...recordSet.locations]);

    const contract = valueOf(validateContract('contract', benchContract(requiredIds)));
    const fromFile = valueOf(await createSqliteCompiler(sha256, await freshDriver()).compile({ contract, recordSet }));
    // Compiled on the database that stores them, beside the stored documents.
    const fromStore = valueOf(await createSqliteCompiler(sha256, driver).compile({ contract, recordSet: restored }));
    expect(serialiseReceipt(fromStore.receipt)).toBe(serialiseReceipt(fromFile.receipt));
  });

  it('never reads back a set stopped halfway, an unknown load, or a document it cannot validate; retain and clear drop loads', async () => {
    const { recordSet } = parsed('a.jsonl', 50);
    const driver = await freshDriver();
    const store = createRecordStore(driver);
    const stopped = store.writeSteps('half', 'a.jsonl', recordSet, 20);
    stopped.next();
    stopped.return();
    expect(store.read('half')?.size).toBe(0);
    expect(store.read('nothing')?.size).toBe(0);

    drain(store.writeSteps('keep', 'a.jsonl', recordSet, 20));
    drain(store.writeSteps('drop', 'a.jsonl', recordSet, 20));
    store.retain(['keep']);
    expect(store.read('drop')?.size).toBe(0);
    expect(driver.all("SELECT count(*) FROM stored_records WHERE load <> 'keep'")).toEqual([[0]]);
    expect(store.read('keep')?.get('a.jsonl')?.checked).toHaveLength(50);

    // Any value of a document that is not what was written sends the load's files back to be read.
    const first = '(SELECT min(rowid) FROM stored_records)';
    const [[doc]] = driver.all(`SELECT doc FROM stored_records WHERE rowid = ${first}`) as [[string]];
    for (const edit of [
      "'$[6].tokens', 'many'",
      "'$[0]', 7",
      "'$[1]', 2",
      "'$[2]', '2026-01-01'",
      "'$[4]', 'never'",
      "'$[5]', 1.5",
      "'$[7]', 'extra'",
    ]) {
      driver.all(`UPDATE stored_records SET doc = json_set(doc, ${edit}) WHERE rowid = ${first}`);
      expect(driver.all(`SELECT doc FROM stored_records WHERE rowid = ${first}`), edit).not.toEqual([[doc]]);
      expect(store.read('keep'), edit).toBeNull();
      driver.all(`UPDATE stored_records SET doc = ? WHERE rowid = ${first}`, [doc]);
      expect(store.read('keep')?.get('a.jsonl')?.checked, edit).toHaveLength(50);
    }
    store.clear();
    expect(driver.all('SELECT count(*) FROM stored_records')).toEqual([[0]]);
  });
});
