import { describe, expect, it } from 'vitest';
import { databaseFullMessage, isQuotaError, workspaceFullMessage } from './quota';

describe('a full disk', () => {
  it('is recognised in the browser’s words and SQLite’s', () => {
    expect(isQuotaError(new DOMException('over quota', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError(new Error('sqlite3 result code 13: SQLITE_FULL: database or disk is full'))).toBe(true);
    expect(isQuotaError(new Error('SQLITE_IOERR'))).toBe(false);
  });

  it('says how much space the records needed and how much the browser allows', async () => {
    const error = new DOMException('over quota', 'QuotaExceededError');
    // 3,000 of 100,000 records written at 1,000 bytes each: about 100 MB of documents, twice that with indexes.
    const message = await databaseFullMessage(error, 3_000_000, 100_000, async () => ({ quota: 500 * 1024 * 1024, usage: 480 * 1024 * 1024 }), 3_000);
    expect(message).toBe(
      'Browser storage is full: keeping these 100,000 records on disk needs about 191 MB, and the browser allows this site 20 MB more. They are loaded, but a reload will read, parse and index their files again. Free some space (or reset the workspace) and load them again to keep them.',
    );
  });

  it('names any other failure without calling it a full disk', async () => {
    expect(await databaseFullMessage(new Error('disk I/O error'), 0, 10)).toBe('The loaded records could not be kept in the workspace database (disk I/O error): they are loaded, but a reload will read, parse and index their files again.');
  });

  it('says how much the saved files needed when IndexedDB is full', async () => {
    expect(await workspaceFullMessage(177 * 1024 * 1024, async () => ({ quota: 100 * 1024 * 1024, usage: 90 * 1024 * 1024 }))).toBe(
      'Browser storage is full: saving the loaded files needs about 177 MB (the browser allows this site 10 MB more), so loaded files and edits will not survive a reload. Free some space or reset.',
    );
  });
});
