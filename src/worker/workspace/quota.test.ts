import { describe, expect, it } from 'vitest';
import { databaseFullMessage, isQuotaError, workspaceFullMessage } from './quota';

describe('a full disk', () => {
  it('is recognised in the browser’s words and SQLite’s', () => {
    expect(isQuotaError(new DOMException('over quota', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError(new Error('sqlite3 result code 13: SQLITE_FULL: database or disk is full'))).toBe(true);
    expect(isQuotaError(new Error('SQLITE_IOERR'))).toBe(false);
  });

  it('says how much space the database image needed and how much the browser allows', async () => {
    const error = new DOMException('over quota', 'QuotaExceededError');
    const message = await databaseFullMessage(error, 300 * 1024 * 1024, async () => ({
      quota: 500 * 1024 * 1024,
      usage: 480 * 1024 * 1024,
    }));
    expect(message).toBe(
      'Browser storage is full: keeping the workspace database on disk needs about 300 MB, and the browser allows this site 20 MB more. Everything is loaded, but a reload will read, parse and index the loaded files again. Free some space (or reset the workspace) and load the files again to keep them.',
    );
  });

  it('takes an I/O error for a full disk when less space is left than the image needs', async () => {
    const message = await databaseFullMessage(
      new Error('the database copy failed: SQLITE_IOERR_WRITE'),
      300 * 1024 * 1024,
      async () => ({ quota: 100 * 1024 * 1024, usage: 99 * 1024 * 1024 }),
    );
    expect(message).toMatch(
      /^Browser storage is full: keeping the workspace database on disk needs about 300 MB, and the browser allows this site 1 MB more\./,
    );
  });

  it('names any other failure without calling it a full disk', async () => {
    expect(await databaseFullMessage(new Error('disk I/O error'), 10, async () => ({ quota: 1e9, usage: 0 }))).toBe(
      'The workspace database could not be saved on disk (disk I/O error): everything is loaded, but a reload will read, parse and index the loaded files again.',
    );
    expect(await databaseFullMessage(new Error('disk I/O error'), 10)).toMatch(
      /^The workspace database could not be saved on disk/,
    );
  });

  it('says how much the saved files needed when IndexedDB is full', async () => {
    expect(
      await workspaceFullMessage(177 * 1024 * 1024, async () => ({
        quota: 100 * 1024 * 1024,
        usage: 90 * 1024 * 1024,
      })),
    ).toBe(
      'Browser storage is full: saving the loaded files needs about 177 MB (the browser allows this site 10 MB more), so loaded files and edits will not survive a reload. Free some space or reset.',
    );
  });
});
