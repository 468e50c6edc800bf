import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from './connect';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';

describe.skipIf(POSTGRES_URL === undefined)('a connection', () => {
  let database: TestDatabase;
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  beforeAll(async () => {
    database = await openTestDatabase();
    process.on('warning', onWarning);
  });
  afterAll(() => {
    process.off('warning', onWarning);
  });

  it('runs statements asked for before the last has answered one at a time, in order, and the driver warns of nothing', async () => {
    await database.query(`CREATE SCHEMA IF NOT EXISTS ${database.schema}`);
    await database.query(`CREATE TABLE ${database.schema}.turns (n integer)`);
    const pages: number[][] = [];
    const asked = [
      database.query(`SELECT pg_sleep(0.05)`),
      database.copyFrom(`COPY ${database.schema}.turns (n) FROM STDIN`, ['1\n', '2\n']),
      database.query(`INSERT INTO ${database.schema}.turns VALUES (3)`),
      database.queryPages<{ n: number }>(`SELECT n FROM ${database.schema}.turns ORDER BY n`, [], 2, (rows) =>
        pages.push(rows.map((row) => row.n)),
      ),
      database.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${database.schema}.turns`),
    ] as const;
    const answers = await Promise.all(asked);
    expect(pages).toEqual([[1, 2], [3]]);
    expect(answers[4].rows).toEqual([{ n: 3 }]);
    // The warning is emitted on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });

  it('hears the notifications of its channel once the sender commits, and says when the server ends it', async () => {
    const opened = await connect(POSTGRES_URL ?? '');
    if (!opened.ok) throw new Error(opened.error.message);
    const listening = opened.value;
    const heard: string[] = [];
    let lost = 0;
    await listening.listen(
      'cc_test_channel',
      (payload) => heard.push(payload),
      () => (lost += 1),
    );
    await database.query('BEGIN');
    await database.query("SELECT pg_notify('cc_test_channel', 'one'), pg_notify('cc_other_channel', 'two')");
    await listening.query('SELECT 1');
    expect(heard).toEqual([]);
    await database.query('COMMIT');
    await listening.query('SELECT pg_sleep(0.05)');
    expect(heard).toEqual(['one']);
    await listening.query('SELECT pg_terminate_backend(pg_backend_pid())').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lost).toBe(1);
    await listening.end();
    expect(lost).toBe(1);
  });
});
