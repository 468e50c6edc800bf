import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../../../bench/generate-records';
import { storedRecordSetDigest } from './record-set-digest';
import { loadRecordLines } from './load-records';
import { BATCH, RECORDS_PER_TURN } from './load-batch';
import type { Database } from './schema';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import type { Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';

const isRecordsCopy = (statement: string) => /^COPY \S+\.records FROM STDIN/.test(statement);

/**
 * A load watched through what it hands the database and the tokeniser, in the order it does so. The database runs one
 * call at a time, as a PostgreSQL connection does, and holds the COPY of batch n's records until the tokeniser has been
 * given a record of batch n + 1 (the last batch's is not held). A load that asks the database anything while such a
 * COPY is held is waiting for the server before it reads the next batch: that is logged as a stall, and the COPY let
 * go.
 */
function watchLoad(database: Database, base: Tokeniser, batches: number) {
  const events: string[] = [];
  /** Records given to the tokeniser so far; every line of the file is a new record, BATCH lines a batch. */
  let tokenised = 0;
  /** The batch whose records the tokeniser was last given. */
  const tokenisedBatch = () => Math.ceil(tokenised / BATCH);
  let recordCopies = 0;
  let linesRead = 0;
  let recordsWritten = 0;
  let mostInFlight = 0;
  let mostTokenisedAtOnce = 0;
  let held: { readonly batch: number; readonly release: () => void } | null = null;
  let tail: Promise<unknown> = Promise.resolve();

  const letGo = (reason: string) => {
    if (held === null) return;
    events.push(`${reason} while the COPY of batch ${held.batch} was held`);
    held.release();
    held = null;
  };
  /** Runs `call` after every call made before it, holding it first when it is a COPY of records to hold. */
  const inTurn = <T>(statement: string, call: () => Promise<T>): Promise<T> => {
    letGo(`asked for ${statement.split(/\s+/).slice(0, 3).join(' ')}`);
    const batch = isRecordsCopy(statement) ? (recordCopies += 1) : 0;
    const run = tail.then(async () => {
      if (batch > 0 && batch < batches && tokenisedBatch() <= batch)
        await new Promise<void>((release) => {
          held = { batch, release };
        });
      return call();
    });
    tail = run.catch(() => undefined);
    return run;
  };

  const watched: Database = {
    schema: database.schema,
    queryPages: database.queryPages,
    query: (text, values) => inTurn(text, () => database.query(text, values)),
    copyFrom: (statement, rows) =>
      inTurn(statement, async () => {
        const given = [...rows];
        await database.copyFrom(statement, given);
        if (isRecordsCopy(statement)) recordsWritten += given.length;
      }),
  };
  const tokeniser: Tokeniser = {
    records(texts) {
      const before = tokenisedBatch();
      tokenised += texts.length;
      mostTokenisedAtOnce = Math.max(mostTokenisedAtOnce, texts.length);
      if (tokenisedBatch() > before) events.push(`tokenising batch ${tokenisedBatch()}`);
      if (held !== null && tokenisedBatch() > held.batch) {
        held.release();
        held = null;
      }
      return base.records(texts);
    },
    phrase: (term) => base.phrase(term),
  };
  /** The file a line a chunk, each counted as the load takes it, with the records read but not yet written. */
  async function* lines(fileLines: readonly string[]): AsyncGenerator<string> {
    for (const line of fileLines) {
      linesRead += 1;
      mostInFlight = Math.max(mostInFlight, linesRead - recordsWritten);
      yield `${line}\n`;
    }
  }
  return {
    events,
    watched,
    tokeniser,
    lines,
    mostInFlight: () => mostInFlight,
    mostTokenisedAtOnce: () => mostTokenisedAtOnce,
  };
}

const generatedLines = (count: number) => generateRecords(count, 7).records.map((record) => JSON.stringify(record));

describe.skipIf(POSTGRES_URL === undefined)('a load overlaps reading and writing in bounded memory', () => {
  let database: TestDatabase;
  let tokeniser: Tokeniser;
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });

  it("reads and tokenises the next batch while the database copies the previous batch's rows", async () => {
    const fileLines = generatedLines(3 * BATCH);
    const watch = watchLoad(database, tokeniser, 3);
    const loaded = await loadRecordLines(
      sha256,
      watch.watched,
      'records.jsonl',
      watch.lines(fileLines),
      watch.tokeniser,
    );
    expect(loaded.ok && loaded.value.inserted).toBe(fileLines.length);
    expect(watch.events).toEqual(['tokenising batch 1', 'tokenising batch 2', 'tokenising batch 3']);

    // The same rows as a load that is not watched: the schema is loaded again from one chunk, through the connection.
    const digest = await storedRecordSetDigest(database);
    await database.query(`DROP SCHEMA ${database.schema} CASCADE`);
    const again = await loadRecordLines(sha256, database, 'records.jsonl', [`${fileLines.join('\n')}\n`], tokeniser);
    expect(again.ok && again.value.inserted).toBe(fileLines.length);
    expect(await storedRecordSetDigest(database)).toBe(digest);
  });

  it('holds at most two batches of records read but not written, however long the file, and tokenises a few at a time', async () => {
    const mostInFlight = async (count: number) => {
      await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
      const watch = watchLoad(database, tokeniser, 0);
      const loaded = await loadRecordLines(
        sha256,
        watch.watched,
        'records.jsonl',
        watch.lines(generatedLines(count)),
        watch.tokeniser,
      );
      expect(loaded.ok && loaded.value.inserted).toBe(count);
      // A record's tokens are dropped as soon as its rows are made, not held with the rest of its batch.
      expect(watch.mostTokenisedAtOnce()).toBeLessThanOrEqual(RECORDS_PER_TURN);
      return watch.mostInFlight();
    };
    const atN = await mostInFlight(2 * BATCH);
    const at2N = await mostInFlight(4 * BATCH);
    expect(at2N).toBe(atN);
    expect(at2N).toBeLessThanOrEqual(2 * BATCH + 1);
  });

  it("reloading, looks the next batch's lines up while a batch is read, and holds at most three batches", async () => {
    const fileLines = generatedLines(4 * BATCH);
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    const first = await loadRecordLines(sha256, database, 'records.jsonl', [`${fileLines.join('\n')}\n`], tokeniser);
    expect(first.ok).toBe(true);
    // Every line changed: each is looked up, read, tokenised and written again.
    const changedLines = fileLines.map((line) => line.replace('"title":"', '"title":"Changed: '));

    const events: string[] = [];
    let lookUps = 0;
    let tokenised = 0;
    let linesRead = 0;
    let recordsWritten = 0;
    let mostInFlight = 0;
    const watched: Database = {
      schema: database.schema,
      queryPages: database.queryPages,
      query: (text, values) => {
        if (text.includes('line_hash = ANY')) events.push(`look-up ${(lookUps += 1)}`);
        return database.query(text, values);
      },
      copyFrom: async (statement, rows) => {
        const given = [...rows];
        await database.copyFrom(statement, given);
        if (isRecordsCopy(statement)) recordsWritten += given.length;
      },
    };
    const watchedTokeniser: Tokeniser = {
      records(texts) {
        const before = Math.ceil(tokenised / BATCH);
        tokenised += texts.length;
        if (Math.ceil(tokenised / BATCH) > before) events.push(`tokenising batch ${Math.ceil(tokenised / BATCH)}`);
        return tokeniser.records(texts);
      },
      phrase: (term) => tokeniser.phrase(term),
    };
    async function* lines(): AsyncGenerator<string> {
      for (const line of changedLines) {
        linesRead += 1;
        mostInFlight = Math.max(mostInFlight, linesRead - recordsWritten);
        yield `${line}\n`;
      }
    }
    const reloaded = await loadRecordLines(sha256, watched, 'records.jsonl', lines(), watchedTokeniser);
    expect(reloaded.ok && reloaded.value).toMatchObject({ updated: fileLines.length, inserted: 0, deleted: 0 });
    expect(events).toEqual([
      'look-up 1',
      'look-up 2',
      'tokenising batch 1',
      'look-up 3',
      'tokenising batch 2',
      'look-up 4',
      'tokenising batch 3',
      'tokenising batch 4',
    ]);
    expect(mostInFlight).toBeLessThanOrEqual(3 * BATCH + 1);
  });
});
