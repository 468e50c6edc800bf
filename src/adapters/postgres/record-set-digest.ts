import { leafBytes, utf16Order } from './order-key';
import type { Database } from './schema';

/**
 * A chunk's end: its last record's order key. A chunk ends after a record with `ends_chunk`, and the last chunk at the
 * last record.
 */
// Both read an index alone (records_chunk_ends, records_order): the last key is one step from the end of its index.
const ends = (schema: string) =>
  `SELECT ${utf16Order('id')} AS chunk_end FROM ${schema}.records WHERE ends_chunk UNION SELECT last ` +
  `FROM (SELECT max(${utf16Order('id')}) AS last FROM ${schema}.records) x WHERE last IS NOT NULL`;

/**
 * Brings `digest_chunks` to the records, in the caller's transaction, re-hashing only the chunks a change
 * reached: for each id in the temporary table `load_changed` (written, replaced or deleted), the stored chunk
 * that held its place and the one after it (whose start moves when a chunk's end comes or goes); a stored
 * chunk whose end is no longer an end goes too. Every end without a stored chunk is then hashed from its
 * records. With `all`, every chunk is hashed again (a new layout's first load). Every statement reads a
 * chunk's records or the chunk ends through an index (schema.ts), so one change costs a chunk, not the corpus.
 * The first chunk starts after '', which no id is.
 */
export async function keepRecordSetDigest(client: Database, all: boolean): Promise<void> {
  const { schema } = client;
  if (all) {
    // One pass in order: each record's chunk is the number of chunk ends before it.
    await client.query(`DELETE FROM ${schema}.digest_chunks`);
    await client.query(
      `INSERT INTO ${schema}.digest_chunks (chunk_end, digest)
       SELECT max(k), sha256(string_agg(leaf, ''::bytea ORDER BY k)) FROM (
         SELECT ${utf16Order('id')} AS k, ${leafBytes('id', 'fingerprint')} AS leaf,
           coalesce(sum(ends_chunk::integer) OVER (ORDER BY ${utf16Order('id')} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS chunk
         FROM ${schema}.records) x GROUP BY chunk`,
    );
    return;
  }
  await client.query(
    `WITH keys AS (SELECT DISTINCT ${utf16Order('id')} AS k FROM load_changed),
       reached AS (
         SELECT (SELECT min(c.chunk_end) FROM ${schema}.digest_chunks c WHERE c.chunk_end >= keys.k) AS chunk_end FROM keys
         UNION SELECT (SELECT min(c.chunk_end) FROM ${schema}.digest_chunks c WHERE c.chunk_end > keys.k) FROM keys
         UNION SELECT max(chunk_end) FROM ${schema}.digest_chunks WHERE EXISTS (SELECT 1 FROM keys WHERE keys.k > (SELECT max(chunk_end) FROM ${schema}.digest_chunks)))
       DELETE FROM ${schema}.digest_chunks c WHERE c.chunk_end IN (SELECT chunk_end FROM reached) OR c.chunk_end NOT IN (${ends(schema)})`,
  );
  await client.query(
    `WITH all_ends AS (${ends(schema)}),
     bounded AS (SELECT chunk_end, lag(chunk_end) OVER (ORDER BY chunk_end) AS after FROM all_ends),
     missing AS (SELECT b.chunk_end, b.after FROM bounded b WHERE NOT EXISTS (SELECT 1 FROM ${schema}.digest_chunks c WHERE c.chunk_end = b.chunk_end))
     INSERT INTO ${schema}.digest_chunks (chunk_end, digest)
     SELECT m.chunk_end, (SELECT sha256(string_agg(${leafBytes('r.id', 'r.fingerprint')}, ''::bytea ORDER BY ${utf16Order('r.id')}))
       FROM ${schema}.records r WHERE ${utf16Order('r.id')} <= m.chunk_end AND ${utf16Order('r.id')} > coalesce(m.after, ''))
     FROM missing m`,
  );
}

/**
 * The record-set digest of every record, from the chunks the loads keep: `recordSetDigest` of the core, read without
 * reading the records.
 */
export async function storedRecordSetDigest(client: Database): Promise<string> {
  const { rows } = await client.query<{ digest: string }>(
    `SELECT encode(sha256(coalesce(string_agg(convert_to(encode(digest, 'hex') || E'\\n', 'UTF8'), ` +
      `''::bytea ORDER BY chunk_end), ''::bytea)), 'hex') AS digest FROM ${client.schema}.digest_chunks`,
  );
  return rows[0]?.digest ?? '';
}
