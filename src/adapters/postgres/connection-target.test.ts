import { describe, expect, it } from 'vitest';
import { connectionTarget } from './connection-target';

describe('what --database names', () => {
  it("passes a URL on without its sslmode, as pg's own ssl setting, so pg has no mode to warn about", () => {
    expect(connectionTarget('postgres://me:secret@db:5433/corpus?sslmode=require&application_name=cc', {})).toEqual({
      ok: true,
      config: {
        connectionString: 'postgres://me:secret@db:5433/corpus?application_name=cc',
        ssl: { rejectUnauthorized: false },
      },
      shown: 'postgres://me:***@db:5433/corpus?sslmode=require&application_name=cc',
    });
    expect(connectionTarget('postgresql://db/corpus?sslmode=verify-full', {})).toMatchObject({
      ok: true,
      config: { ssl: { rejectUnauthorized: true } },
    });
    expect(connectionTarget('postgresql://db/corpus', {})).toMatchObject({ ok: true, config: { ssl: false } });
  });

  it('reads libpq key=value strings, quoted values included, and never shows the password', () => {
    const target = connectionTarget(
      "host=db port=5433 dbname=corpus user=me password='it\\'s secret' sslmode=verify-ca connect_timeout=3",
      {},
    );
    expect(target).toEqual({
      ok: true,
      config: {
        host: 'db',
        port: 5433,
        database: 'corpus',
        user: 'me',
        password: "it's secret",
        connectionTimeoutMillis: 3000,
        ssl: { rejectUnauthorized: true },
      },
      shown: 'host=db port=5433 dbname=corpus user=me password=*** sslmode=verify-ca connect_timeout=3',
    });
  });

  it('reads DATABASE_URL for env, else leaves the server to the PG* variables', () => {
    expect(connectionTarget('env', { DATABASE_URL: 'postgres://db/corpus' })).toMatchObject({
      ok: true,
      config: { connectionString: 'postgres://db/corpus' },
    });
    expect(connectionTarget('env', {})).toEqual({ ok: true, config: {}, shown: 'the server the PG* variables name' });
  });

  it('refuses what it cannot read, an unknown key and an unknown sslmode, saying what it takes', () => {
    expect(connectionTarget('mysql://db', {})).toMatchObject({
      ok: false,
      problem: expect.stringContaining('postgres:// URL'),
    });
    expect(connectionTarget('host=db colour=blue', {})).toMatchObject({
      ok: false,
      problem: expect.stringContaining('colour'),
    });
    expect(connectionTarget('postgres://db/x?sslmode=sometimes', {})).toMatchObject({
      ok: false,
      problem: expect.stringContaining('sslmode sometimes'),
    });
  });
});
