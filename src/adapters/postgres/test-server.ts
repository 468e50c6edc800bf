import { afterAll } from 'vitest';
import { connect, type Connection } from './connect';

/**
 * The server the PostgreSQL tests run against: POSTGRES_URL, which scripts/with-postgres.sh sets to a
 * throwaway cluster for `npm test`. Without it the tests are skipped, except under CI, where a missing
 * server fails the run instead of passing it quietly.
 */
export const POSTGRES_URL = process.env.POSTGRES_URL;

if (POSTGRES_URL === undefined && process.env.CI)
  throw new Error('POSTGRES_URL is not set: run the tests through scripts/with-postgres.sh');

export interface TestDatabase extends Connection {
  /** Another connection to the same schema (the caller ends it). */
  reopen(): Promise<Connection>;
}

async function connectOrThrow(schema: string): Promise<Connection> {
  const opened = await connect(POSTGRES_URL ?? '', schema);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

/** A connection to a schema of its own (dropped after the file's tests), so test files never see each other's rows. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const schema = `cc_test_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const connection = await connectOrThrow(schema);
  afterAll(async () => {
    await connection.query(`DROP SCHEMA IF EXISTS ${connection.schema} CASCADE`);
    await connection.end();
  });
  return { ...connection, reopen: () => connectOrThrow(schema) };
}
