import { compareStrings } from '../../core/canonical';
import { componentsOnCycles } from '../../core/cycles';
import type { Database } from './schema';

/** A record's own supersession links, broken: the shape of resolve's `BrokenLink`, which a store may not import. */
export type BrokenLink =
  | { readonly kind: 'dangling'; readonly targets: readonly string[] }
  | { readonly kind: 'self' }
  | { readonly kind: 'cycle'; readonly successors: readonly string[] };

/**
 * The records whose own supersession links are broken, found from the supersession graph alone (the ids and
 * links of records that supersede something, and which of their targets exist): what resolve's
 * `findBrokenLinks` finds over the whole record set, by the same rules in the same precedence (a dangling
 * target, then the record itself, then a cycle through other records). It reads O(successors) rows, so a load
 * keeps the set without reading the corpus; a differential test holds it to resolve's answer.
 */
export function brokenLinksOf(
  successors: ReadonlyMap<string, readonly string[]>,
  exists: (id: string) => boolean,
): Map<string, BrokenLink> {
  const broken = new Map<string, BrokenLink>();
  for (const [id, supersedes] of successors) {
    const missing = supersedes.filter((target) => !exists(target));
    if (missing.length > 0) broken.set(id, { kind: 'dangling', targets: [...new Set(missing)].sort(compareStrings) });
    else if (supersedes.includes(id)) broken.set(id, { kind: 'self' });
  }
  const component = componentsOnCycles(successors.keys(), (id) => (successors.get(id) ?? []).filter(exists));
  const onCycle = new Map<string, string[]>();
  for (const [id, supersedes] of successors) {
    const own = component.get(id);
    if (own === undefined) continue;
    for (const target of supersedes) {
      if (target === id || component.get(target) !== own || broken.has(target)) continue;
      const found = onCycle.get(target);
      if (found === undefined) onCycle.set(target, [id]);
      else found.push(id);
    }
  }
  for (const [id, by] of onCycle) broken.set(id, { kind: 'cycle', successors: [...new Set(by)].sort(compareStrings) });
  return broken;
}

/**
 * Brings `supersession_breaks` to the records the tables hold, in the caller's transaction. After a load into empty
 * tables (`all`), from every successor's links and which of their targets exist. After a change (`changed`: the ids in
 * `load_changed`), from the changed records and the successors that name one of them alone, since a link breaks or
 * mends only where a record that supersedes, or is superseded, changed; unless a cycle runs through a changed record,
 * or one was stored before, when it reads every successor as after a load into empty tables.
 */
export async function keepBrokenLinks(client: Database, scope: 'all' | 'changed'): Promise<void> {
  const stored = await storedBrokenLinks(client);
  const cycles = scope === 'all' || [...stored.values()].some((link) => link.kind === 'cycle');
  const changed = cycles ? [] : await changedIds(client);
  const near = cycles || (await changeCloses(client, changed)) ? null : await nearChanges(client, changed);
  const rows =
    near?.rows ??
    (
      await client.query<{ id: string; supersedes: string[] }>(
        `SELECT id, supersedes FROM ${client.schema}.records WHERE cardinality(supersedes) > 0`,
      )
    ).rows;
  const successors = new Map(rows.map((row) => [row.id, row.supersedes]));
  // Which targets exist, looked up by id: a join of every record against the targets read the whole table.
  const targets = [...new Set(rows.flatMap((row) => row.supersedes))];
  const { rows: present } = await client.query<{ id: string }>(
    `SELECT id FROM ${client.schema}.records WHERE id = ANY($1::text[])`,
    [targets],
  );
  const existing = new Set(present.map((row) => row.id));
  const broken = brokenLinksOf(successors, (id) => existing.has(id));
  const within = (id: string) => near === null || near.ids.has(id);
  // Only the rows that changed are written: a load that touches no supersession writes none.
  const same = (a: BrokenLink, b: BrokenLink) =>
    a.kind === b.kind && namesOf(a).join('\u0000') === namesOf(b).join('\u0000');
  const differs = (link: BrokenLink, other: BrokenLink | undefined) => other === undefined || !same(link, other);
  const gone = [...stored].filter(([id, link]) => within(id) && differs(link, broken.get(id)));
  const fresh = [...broken].filter(([id, link]) => differs(link, stored.get(id)));
  if (gone.length > 0)
    await client.query(`DELETE FROM ${client.schema}.supersession_breaks WHERE id = ANY($1::text[])`, [
      gone.map(([id]) => id),
    ]);
  if (fresh.length === 0) return;
  await client.query(
    `INSERT INTO ${client.schema}.supersession_breaks (id, kind, names) SELECT x.id, x.kind, ARRAY(SELECT ` +
      `jsonb_array_elements_text(x.names)) FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS x(id, kind, ` +
      `names)`,
    [
      fresh.map(([id]) => id),
      fresh.map(([, link]) => link.kind),
      fresh.map(([, link]) => JSON.stringify(namesOf(link))),
    ],
  );
}

/** Whether a changed record reaches itself through the links of the successors (a cycle runs through it). */
async function changeCloses(client: Database, changed: readonly string[]): Promise<boolean> {
  const { schema } = client;
  // The changed ids as a parameter, not joined from load_changed: a temporary table has no statistics, and the plan
  // for its default guess of rows sized the union's table of ids reached for a million rows.
  const { rows } = await client.query<{ closes: boolean }>(
    `WITH RECURSIVE reach(id) AS (
       SELECT t.id FROM ${schema}.records r CROSS JOIN LATERAL unnest(r.supersedes) AS t(id)
       WHERE r.id = ANY($1::text[]) AND cardinality(r.supersedes) > 0
       UNION
       SELECT t.id FROM reach x JOIN ${schema}.records r ON r.id = x.id CROSS JOIN LATERAL unnest(r.supersedes) AS t(id)
       WHERE cardinality(r.supersedes) > 0)
     SELECT EXISTS (SELECT 1 FROM reach x WHERE x.id = ANY($1::text[])) AS closes`,
    [changed],
  );
  return rows[0]?.closes === true;
}

/** The ids a load or delete changed (`load_changed`), each once. */
async function changedIds(client: Database): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>('SELECT DISTINCT id FROM load_changed');
  return rows.map((row) => row.id);
}

/**
 * The records a change can break or mend a link of: the changed ids, and the successors among them or naming one of
 * them, with their links.
 */
async function nearChanges(
  client: Database,
  ids: readonly string[],
): Promise<{
  readonly ids: ReadonlySet<string>;
  readonly rows: readonly { readonly id: string; readonly supersedes: string[] }[];
}> {
  const { schema } = client;
  const { rows } = await client.query<{ id: string; supersedes: string[] }>(
    `SELECT id, supersedes FROM ${schema}.records WHERE cardinality(supersedes) > 0 ` +
      `AND (id = ANY($1::text[]) OR supersedes && $1::text[])`,
    [ids],
  );
  return { ids: new Set([...ids, ...rows.map((row) => row.id)]), rows };
}

const namesOf = (link: BrokenLink): readonly string[] =>
  link.kind === 'dangling' ? link.targets : link.kind === 'cycle' ? link.successors : [];

/** The broken links the database holds, by id. */
export async function storedBrokenLinks(client: Database): Promise<Map<string, BrokenLink>> {
  const { rows } = await client.query<{ id: string; kind: BrokenLink['kind']; names: string[] }>(
    `SELECT id, kind, names FROM ${client.schema}.supersession_breaks ORDER BY id`,
  );
  return new Map(
    rows.map((row): [string, BrokenLink] => [
      row.id,
      row.kind === 'dangling'
        ? { kind: 'dangling', targets: row.names }
        : row.kind === 'cycle'
          ? { kind: 'cycle', successors: row.names }
          : { kind: 'self' },
    ]),
  );
}
