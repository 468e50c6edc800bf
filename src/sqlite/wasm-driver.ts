import type { Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { SqlDriver, SqlStatement, SqlValue } from '../adapters/sqlite/driver';

/** SQLITE_LIMIT_VARIABLE_NUMBER, read from the build rather than assumed. */
const SQLITE_LIMIT_VARIABLE_NUMBER = 9;
const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
/** The destructor argument that tells SQLite the bound bytes stay put until the statement is reset. */
const SQLITE_STATIC = 0;
/** Room for the strings of one run: a record's row is far below it; a long text gets a buffer of its own. */
const SCRATCH_BYTES = 1 << 16;
/** Up to this many UTF-16 units a string is copied by hand when it is ASCII (see `writeUtf8`). */
const SHORT_STRING = 64;

/** The bytes `TextEncoder` writes for `value`: a surrogate pair takes four, a lone surrogate three (U+FFFD). */
export function utf8Length(value: string): number {
  let bytes = 0;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (
      code >= 0xd800 &&
      code <= 0xdbff &&
      index + 1 < value.length &&
      (value.charCodeAt(index + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** The C functions `run` calls, as the build exports them: numbers in, result codes out, no conversions. */
interface RawExports {
  sqlite3_bind_null(statement: number, index: number): number;
  sqlite3_bind_int(statement: number, index: number, value: number): number;
  sqlite3_bind_int64(statement: number, index: number, value: bigint): number;
  sqlite3_bind_double(statement: number, index: number, value: number): number;
  sqlite3_bind_text(statement: number, index: number, text: number, bytes: number, destructor: number): number;
  sqlite3_step(statement: number): number;
  sqlite3_reset(statement: number): number;
  sqlite3_clear_bindings(statement: number): number;
}

/**
 * Runs a prepared statement that returns no rows through the build's raw exports (`sqlite3.wasm.exports`,
 * which the sqlite-wasm docs leave open to clients who want them). oo1's `bind` checks every argument in
 * JavaScript and copies every string into a buffer of its own from `malloc`; writing 100,000 records' rows
 * that way cost more than SQLite's work on them. Here strings are encoded into one scratch buffer, bound as
 * SQLITE_STATIC, and the bindings cleared before the buffer is written again. Values bind as oo1 binds them:
 * int32 as int, other integers as int64, other numbers as double. The pinned build is wasm32 with BigInt;
 * another build is refused when the driver is made rather than misread on the first write.
 */
function createRawRunner(sqlite3: Sqlite3Static, db: Database): (pointer: number, params: readonly SqlValue[]) => void {
  const { wasm } = sqlite3;
  const pointerBytes = Number(wasm.sizeofIR('*'));
  if (pointerBytes !== 4 || !sqlite3.config.bigIntEnabled) {
    throw new Error(
      `this SQLite build has ${pointerBytes * 8}-bit ` +
        `pointers${sqlite3.config.bigIntEnabled ? '' : ' and no BigInt'}: the driver binds through the wasm32 ` +
        `exports with BigInt`,
    );
  }
  const raw = wasm.exports as RawExports;
  const encoder = new TextEncoder();
  const scratch = Number(wasm.alloc(SCRATCH_BYTES));

  /**
   * Writes `value` as UTF-8 at `at`, returning the byte count. Short ASCII strings (ids, classes, hashes) are
   * copied by hand: in Chromium each `encodeInto` call cost about a microsecond, several times the copy, and
   * a record's row binds a dozen of them. Long strings, and whatever follows a non-ASCII character, go
   * through `encodeInto`, which is the faster of the two per byte.
   */
  const writeUtf8 = (value: string, heap: Uint8Array, at: number, end: number): number => {
    const length = value.length;
    if (length > SHORT_STRING) return encoder.encodeInto(value, heap.subarray(at, end)).written;
    for (let index = 0; index < length; index += 1) {
      const code = value.charCodeAt(index);
      if (code > 0x7f) return index + encoder.encodeInto(value.slice(index), heap.subarray(at + index, end)).written;
      heap[at + index] = code;
    }
    return length;
  };

  return (pointer, params) => {
    let stringBytes = 0;
    // At most three UTF-8 bytes per UTF-16 unit.
    for (const value of params) if (typeof value === 'string') stringBytes += value.length * 3;
    // Longer strings get a buffer of their exact size for this run alone: WASM memory never shrinks, so
    // neither three times a long text's length nor one long text's size is kept for the session.
    if (stringBytes > SCRATCH_BYTES)
      stringBytes = params.reduce<number>(
        (bytes, value) => bytes + (typeof value === 'string' ? utf8Length(value) : 0),
        0,
      );
    const buffer = stringBytes <= SCRATCH_BYTES ? scratch : Number(wasm.alloc(stringBytes));
    // Binding allocates nothing in WASM memory, so this view of it stays valid until the step.
    const heap = wasm.heap8u();
    let at = buffer;
    let rc = 0;
    try {
      for (let index = 0; index < params.length && rc === 0; index += 1) {
        const value = params[index] as SqlValue;
        if (value === null) rc = raw.sqlite3_bind_null(pointer, index + 1);
        else if (typeof value === 'string') {
          const written = writeUtf8(value, heap, at, buffer + stringBytes);
          rc = raw.sqlite3_bind_text(pointer, index + 1, at, written, SQLITE_STATIC);
          at += written;
        } else if ((value | 0) === value) rc = raw.sqlite3_bind_int(pointer, index + 1, value);
        else if (Number.isInteger(value)) rc = raw.sqlite3_bind_int64(pointer, index + 1, BigInt(value));
        else rc = raw.sqlite3_bind_double(pointer, index + 1, value);
      }
      if (rc === 0) {
        const stepped = raw.sqlite3_step(pointer);
        rc = stepped === SQLITE_ROW || stepped === SQLITE_DONE ? 0 : stepped;
      }
      if (rc !== 0) sqlite3.oo1.DB.checkRc(db, rc);
    } finally {
      raw.sqlite3_reset(pointer);
      raw.sqlite3_clear_bindings(pointer);
      if (buffer !== scratch) wasm.dealloc(buffer);
    }
  };
}

/**
 * The one SqlDriver, over @sqlite.org/sqlite-wasm. The CLI uses it with an in-memory database, the app's worker
 * with a database in memory restored from its image in OPFS: Node and the browser run the same SQLite and the
 * same FTS5. Reads go through the build's oo1 API; writes through `createRawRunner`.
 */
export function createWasmDriver(
  sqlite3: Sqlite3Static,
  db: Database = new sqlite3.oo1.DB(':memory:', 'c'),
): SqlDriver {
  const maxParameters = sqlite3.capi.sqlite3_limit(db.pointer ?? 0, SQLITE_LIMIT_VARIABLE_NUMBER, -1);
  db.exec('PRAGMA temp_store = MEMORY;');

  const runRaw = createRawRunner(sqlite3, db);

  const prepare = (sql: string): SqlStatement => {
    const statement = db.prepare(sql);
    return {
      run(params) {
        // A finalized statement has no pointer; the raw exports must never see a null one.
        if (statement.pointer === undefined) throw new Error(`the statement was finalized: ${sql}`);
        runRaw(statement.pointer, params ?? []);
      },
      all(params) {
        if (params && params.length > 0) statement.bind(params as SqlValue[]);
        const rows: SqlValue[][] = [];
        while (statement.step()) rows.push(statement.get([]) as SqlValue[]);
        statement.reset(true);
        return rows;
      },
      finalize() {
        statement.finalize();
      },
    };
  };

  return {
    maxParameters,
    exec(sql) {
      db.exec(sql);
    },
    prepare,
    all(sql, params) {
      const statement = prepare(sql);
      try {
        return statement.all(params);
      } finally {
        statement.finalize();
      }
    },
    transaction(work) {
      return db.transaction(() => work());
    },
  };
}
