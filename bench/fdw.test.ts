import { sha256InNode } from '../src/lib/node-sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRecordSet } from '../src/adapters/postgres/load-records';
import { publish, shardNames } from '../src/adapters/postgres/shards';
import { openTwoShards, type TwoShards } from '../src/adapters/postgres/test-support/two-shards';
import { POSTGRES_URL } from '../src/adapters/postgres/test-server';
import { createUnicodeTokeniser } from '../src/adapters/postgres/unicode61';
import { contractSchema } from '../src/core/format/contract';
import { compareOnShards } from './fdw';
import { benchContract, generateRecords, readGenerated } from './generate-records';

describe.skipIf(POSTGRES_URL === undefined)('the two-server run on the bench corpus', () => {
  let two: TwoShards;
  beforeAll(async () => {
    two = await openTwoShards();
  });

  it('gives the one-server receipt byte for byte, and explains what the shards ran', async () => {
    const { records, requiredIds } = generateRecords(300, 7);
    const tokeniser = createUnicodeTokeniser();
    const loaded = await loadRecordSet(sha256InNode, two.single, 'generated.jsonl', readGenerated(records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    await publish(two.coordinator, two.single.schema);
    const { rows } = await two.coordinator.query<{ records: string }>(
      `SELECT count(*) AS records FROM ${two.coordinator.schema}.records GROUP BY tableoid`,
    );
    expect(rows.map((row) => Number(row.records)).sort()).toHaveLength(2);
    expect(rows.reduce((sum, row) => sum + Number(row.records), 0)).toBe(300);
    for (const shard of two.shards) {
      const stray = await shard.database.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${shard.database.schema}.documents x WHERE NOT EXISTS (SELECT 1 FROM ${shard.database.schema}.records r WHERE r.id = x.id)`,
      );
      expect(stray.rows[0]?.n).toBe('0');
    }

    const compared = await compareOnShards(
      two.single,
      two.coordinator,
      contractSchema.parse(benchContract(requiredIds)),
      tokeniser,
    );
    expect(compared.same).toBe(true);
    expect(compared.receipt).toContain('"attestation":"candidates"');
    const answer = compared.pushdown.plans.find((plan) => plan.includes('CTE shard_part'));
    // Each part is asked of both shards at once: an Append of asynchronous foreign scans, one per shard.
    for (const part of ['admitted', 'shard_part', 'shard_df', 'shard_hits', 'shard_refused'])
      expect(answer).toMatch(
        new RegExp(
          `CTE ${part}\\n\\s+->  Append\\n\\s+->  Async Foreign Scan.*\\n(.*\\n){1,3}\\s+->  Async Foreign Scan`,
        ),
      );
    for (const shard of [0, 1]) {
      const tables = shardNames(two.coordinator.schema, shard).tables.slice(1, -1);
      // The admitted count and token total are counted on the shard, under admission's whole condition.
      expect(answer).toContain(`Relations: Aggregate on (${tables}.records`);
      expect(answer).toMatch(
        /Remote SQL: SELECT count\(\*\), sum\(\(title_tokens \+ text_tokens\)\) FROM cc_sharded\.records WHERE .*scope = ANY .*provenance_ok.*labels &&/,
      );
      // So are each query term's admitted documents and the refused records per reason.
      expect(answer).toMatch(
        new RegExp(`Relations: Aggregate on \\(\\(${tables}\\.records r_\\d+\\) INNER JOIN \\(${tables}\\.postings`),
      );
      expect(answer).toMatch(
        new RegExp(
          `Relations: Aggregate on \\(\\(${tables}\\.records r_\\d+\\) LEFT JOIN \\(${tables}\\.supersession_breaks`,
        ),
      );
      // The admitted rows come from the records alone, with their declared tokens and relevance: no document is read.
      expect(answer).not.toContain(`${tables}.documents`);
      // The admitted records' hits of the query's terms are joined on the shard.
      expect(answer).toMatch(
        new RegExp(`Relations: \\(${tables}\\.records r\\w*\\) INNER JOIN \\(${tables}\\.postings`),
      );
    }
    expect(answer).toMatch(/Remote SQL: SELECT .*\btokens, relevance FROM cc_sharded\.records WHERE .*provenance_ok/);
    expect(answer).toMatch(/Remote SQL: SELECT count\(\*\), count\(\*\) FILTER \(WHERE \(r2\.term = 'late'\)\)/);
    // Whether a refused record is withheld (it fails an authorisation or deny clause) is decided on the shard too.
    expect(answer).toMatch(
      /Remote SQL: SELECT count\(\*\), count\(\*\) FILTER \(WHERE \(\(CASE WHEN \(\(r2\.roles && .*\(NOT \(r2\.labels && '\{[^}]*\}'\)\)\) THEN \(CASE WHEN \(r2\.project = /,
    );
    expect(answer).toMatch(
      /Remote SQL: SELECT r2\.record_id, r2\.term, r2\.title_tf, r2\.text_tf FROM \(cc_sharded\.records r1 INNER JOIN cc_sharded\.postings r2 ON .*r2\.term = ANY .*provenance_ok/,
    );
  });
});
