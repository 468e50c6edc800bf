import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { serialiseReceipt } from '../../core/phases/7-attest/attest';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import { buildContract, buildRecord } from '../../core/test-support/builders';
import { brokenLinksCase, conformanceCases } from '../conformance/corpus';
import { compileInDatabase } from './compile-in-database';
import { loadRecordSet } from './load-records';
import { LAYOUT, type Database } from './schema';
import { publish, serverOptions, shardNames } from './shards';
import { COORDINATOR_SETTINGS } from './shard-snapshots';
import { openTwoShards, type TwoShards } from './test-support/two-shards';
import { POSTGRES_URL } from './test-server';
import type { Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';
import { watchStatements } from './watch-statements';

const tokeniser = createUnicodeTokeniser();

/** Every gate alone and a few combinations of them all, and broken supersession links. */
const cases = [...conformanceCases(4), brokenLinksCase()];

describe.skipIf(POSTGRES_URL === undefined)('the answered compile through a coordinator over two shards', () => {
  let two: TwoShards;
  beforeAll(async () => {
    two = await openTwoShards();
  });

  it('gives the one-server receipt byte for byte, case by case', async () => {
    let spread = 0;
    let answeredOnShards = 0;
    for (const item of cases) {
      const loaded = await loadRecordSet(
        sha256,
        two.single,
        item.name,
        createRecordSet(sha256, item.records),
        tokeniser,
      );
      if (!loaded.ok) throw new Error(loaded.error.message);
      await publish(two.coordinator, two.single.schema);
      const one = await compileInDatabase(sha256, two.single, item.contract, tokeniser);
      let onShards = false;
      const watched = watchStatements(two.coordinator, {
        before: (text) => {
          onShards ||= text.includes('shard_part AS MATERIALIZED');
        },
      });
      const sharded = await compileInDatabase(sha256, watched, item.contract, tokeniser);
      if (onShards) answeredOnShards += 1;
      expect(sharded.ok, item.name).toBe(one.ok);
      if (!one.ok || !sharded.ok) {
        expect(sharded.ok ? null : sharded.error.code, item.name).toBe(one.ok ? null : one.error.code);
        continue;
      }
      expect(one.value.outcome.receipt.attestation, item.name).toBe('candidates');
      expect(serialiseReceipt(sharded.value.outcome.receipt), item.name).toBe(
        serialiseReceipt(one.value.outcome.receipt),
      );
      const { rows } = await two.coordinator.query<{ shards: string }>(
        `SELECT count(DISTINCT tableoid) AS shards FROM ${two.coordinator.schema}.records`,
      );
      if (rows[0]?.shards === '2') spread += 1;
    }
    // The records really are on both shards: a corpus on one shard would prove nothing about two.
    expect(spread).toBeGreaterThan(cases.length / 2);
    // Each shard filtered and counted its own records (shard-answer.ts), not one server's statements over the
    // partitions.
    expect(answeredOnShards).toBe(cases.length);
  });

  it('looks the shards up once per compile and hands them to the answer', async () => {
    const item = cases[cases.length - 1] ?? brokenLinksCase();
    const loaded = await loadRecordSet(sha256, two.single, item.name, createRecordSet(sha256, item.records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    await publish(two.coordinator, two.single.schema);
    /** The statements of one compile that ask whether the database has a table of shards, or list them. */
    const lookupsOf = async (database: Database) => {
      const lookups: string[] = [];
      let onShards = false;
      const watched = watchStatements(database, {
        before: (text, values) => {
          const table = `${database.schema}.shards`;
          if (text.includes(table) || values.includes(table)) lookups.push(text);
          onShards ||= text.includes('shard_part AS MATERIALIZED');
        },
      });
      const compiled = await compileInDatabase(sha256, watched, item.contract, tokeniser);
      if (!compiled.ok) throw new Error(compiled.error.message);
      return { lookups: lookups.length, onShards };
    };
    // Whether this is a coordinator, then its shards: once, for the snapshot check and the answer both.
    expect(await lookupsOf(two.coordinator)).toEqual({ lookups: 2, onShards: true });
    expect(await lookupsOf(two.single)).toEqual({ lookups: 1, onShards: false });
  });

  it('matches a query phrase of several tokens on the shards, with the one-server receipt', async () => {
    // No query term this build's tokenizer makes splits, so a tokeniser that splits one stands in (as in rank.test.ts).
    const splitting: Tokeniser = {
      records: (texts) => tokeniser.records(texts),
      phrase: (term) => (term === 'alphabeta' ? ['alpha', 'beta'] : tokeniser.phrase(term)),
    };
    const texts = ['alpha beta', 'beta alpha', 'alpha x beta', 'alpha beta alpha beta gamma', 'gamma', 'alpha'];
    const records = Array.from({ length: 24 }, (_, index) =>
      buildRecord({
        id: `p-${String(index).padStart(2, '0')}`,
        title: index % 4 === 0 ? 'alpha beta title' : 'other',
        text: texts[index % texts.length] ?? '',
        ...(index % 5 === 0 ? { scope: 'legal' } : {}),
      }),
    );
    const contract = buildContract({ query: 'alphabeta gamma', tokenBudget: 40 });
    const loaded = await loadRecordSet(sha256, two.single, 'phrases', createRecordSet(sha256, records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    await publish(two.coordinator, two.single.schema);
    const one = await compileInDatabase(sha256, two.single, contract, splitting);
    const answers: { text: string; values: readonly unknown[] }[] = [];
    const watched = watchStatements(two.coordinator, {
      before: (text, values) => {
        if (text.includes('shard_part AS MATERIALIZED')) answers.push({ text, values });
      },
    });
    const sharded = await compileInDatabase(sha256, watched, contract, splitting);
    if (!one.ok || !sharded.ok)
      throw new Error(`${one.ok ? '' : one.error.message} ${sharded.ok ? '' : sharded.error.message}`);
    expect(serialiseReceipt(sharded.value.outcome.receipt)).toBe(serialiseReceipt(one.value.outcome.receipt));
    const ranking = one.value.outcome.receipt.ranking;
    // The phrase was matched by its positions: records holding both tokens apart or reversed do not count.
    expect(ranking?.mode === 'bm25' ? ranking.terms : []).toEqual([
      { term: 'alphabeta', documents: 9 },
      { term: 'gamma', documents: 6 },
    ]);
    const [answer] = answers;
    if (answer === undefined) throw new Error('the shards did not answer');
    await two.coordinator.query('BEGIN');
    await two.coordinator.query(COORDINATOR_SETTINGS);
    const { rows } = await two.coordinator.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (VERBOSE, COSTS OFF) ${answer.text}`,
      answer.values,
    );
    await two.coordinator.query('ROLLBACK');
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    // Each shard joins its admitted records with the postings of both of the phrase's tokens and sends their positions.
    for (const shard of [0, 1]) {
      const tables = shardNames(two.coordinator.schema, shard).tables.slice(1, -1);
      expect(plan).toMatch(
        new RegExp(
          `Relations: \\(\\(${tables}\\.records r\\w*\\) INNER JOIN \\(${tables}\\.postings t0\\w*\\)\\) INNER JOIN \\(${tables}\\.postings t1`,
        ),
      );
    }
    expect(plan).toMatch(
      /Remote SQL: SELECT r1\.id, r2\.title_at, r2\.text_at, (r\d+)\.title_at, \1\.text_at FROM \(\(cc_sharded\.records r1 INNER JOIN cc_sharded\.postings r2 ON .*r2\.term = 'alpha'.* INNER JOIN cc_sharded\.postings \1 ON .*\1\.term = 'beta'/,
    );
  });

  it('refuses, with no packet, a compile through shards at different snapshots', async () => {
    const item = cases[cases.length - 1] ?? brokenLinksCase();
    const loaded = await loadRecordSet(sha256, two.single, item.name, createRecordSet(sha256, item.records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const snapshot = await publish(two.coordinator, two.single.schema);
    expect((await compileInDatabase(sha256, two.coordinator, item.contract, tokeniser)).ok).toBe(true);
    // A load that reached the second shard and not the first.
    const [, second] = two.shards;
    await second?.database.query(`UPDATE ${second.database.schema}.layout SET snapshot = $1`, [snapshot + 1]);
    for (const attestation of ['candidates', 'full'] as const) {
      const refused = await compileInDatabase(sha256, two.coordinator, item.contract, tokeniser, {}, attestation);
      expect(refused.ok ? 'a packet' : refused.error.code, attestation).toBe('ADAPTER_SNAPSHOT_SPLIT');
      expect(refused.ok ? '' : refused.error.message).toContain(`shard 0 at ${snapshot}, shard 1 at ${snapshot + 1}`);
    }
    await publish(two.coordinator, two.single.schema);
    expect((await compileInDatabase(sha256, two.coordinator, item.contract, tokeniser)).ok).toBe(true);
  });

  it('gives ADAPTER_INCOMPLETE and no packet when a shard fails between two statements of a compile', async () => {
    const item = cases[cases.length - 1] ?? brokenLinksCase();
    const loaded = await loadRecordSet(sha256, two.single, item.name, createRecordSet(sha256, item.records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    await publish(two.coordinator, two.single.schema);
    const [first] = two.shards;
    if (first === undefined) throw new Error('no shard');
    let terminated = 0;
    // Once the answer statement has run, the first shard ends the coordinator's connection to it, as a shard restarting
    // would.
    const failing = watchStatements(two.coordinator, {
      after: async (text) => {
        if (terminated > 0 || !text.includes('refused AS')) return;
        const { rows } = await first.database.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'postgres_fdw'`,
        );
        for (const { pid } of rows) await first.database.query('SELECT pg_terminate_backend($1)', [pid]);
        terminated = rows.length;
      },
    });
    const failed = await compileInDatabase(sha256, failing, item.contract, tokeniser);
    expect(terminated).toBeGreaterThan(0);
    expect(failed.ok ? 'a packet' : failed.error.code).toBe('ADAPTER_INCOMPLETE');
    expect(failed.ok ? '' : failed.error.message).toMatch(/connection|server/i);
    // The next compile opens a new connection to the shard.
    expect((await compileInDatabase(sha256, two.coordinator, item.contract, tokeniser)).ok).toBe(true);
  });

  it('compiles through a coordinator of layout 6 as through one of this layout', async () => {
    const item = cases[0];
    if (item === undefined) throw new Error('no conformance case');
    const loaded = await loadRecordSet(sha256, two.single, item.name, createRecordSet(sha256, item.records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    await publish(two.coordinator, two.single.schema);
    const current = await compileInDatabase(sha256, two.coordinator, item.contract, tokeniser);
    await two.coordinator.query(`UPDATE ${two.coordinator.schema}.layout SET version = 6`);
    try {
      const six = await compileInDatabase(sha256, two.coordinator, item.contract, tokeniser);
      expect(six.ok && serialiseReceipt(six.value.outcome.receipt)).toBe(
        current.ok && serialiseReceipt(current.value.outcome.receipt),
      );
    } finally {
      await two.coordinator.query(`UPDATE ${two.coordinator.schema}.layout SET version = $1`, [LAYOUT]);
    }
  });

  it("reaches a shard by the URL's socket folder or host and port", () => {
    expect(serverOptions('postgresql://postgres@localhost/shard?host=/tmp/pg.x')).toEqual({
      dbname: 'shard',
      host: '/tmp/pg.x',
    });
    expect(serverOptions('postgres://u:p@db.example:5433/cc')).toEqual({
      dbname: 'cc',
      host: 'db.example',
      port: '5433',
    });
  });
});
