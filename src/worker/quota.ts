const MB = 1024 * 1024;

const megabytes = (bytes: number) => `${Math.max(1, Math.ceil(bytes / MB)).toLocaleString('en-GB')} MB`;

/** Whether an error says the disk or the origin's quota is full, in SQLite's words or the browser's. */
export function isQuotaError(error: unknown): boolean {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  return name === 'QuotaExceededError' || /SQLITE_FULL|disk is full|quota/i.test(message);
}

/**
 * What to tell the user when the records of a drop could not be kept in the workspace database. For a full
 * disk it says how much space was needed: the documents written before the failure, scaled to every record
 * (the database holds about as much again in indexes), and what the browser says is free.
 */
export async function databaseFullMessage(
  error: unknown,
  bytesWritten: number,
  recordCount: number,
  estimate?: () => Promise<{ readonly quota?: number; readonly usage?: number }>,
  recordsWritten = 0,
): Promise<string> {
  if (!isQuotaError(error)) {
    return `The loaded records could not be kept in the workspace database (${error instanceof Error ? error.message : String(error)}): they are loaded, but a reload will read, parse and index their files again.`;
  }
  const perRecord = recordsWritten > 0 ? bytesWritten / recordsWritten : bytesWritten / Math.max(1, recordCount);
  const needed = Math.max(bytesWritten, perRecord * recordCount) * 2;
  let free = '';
  try {
    const { quota, usage } = (await estimate?.()) ?? {};
    if (quota !== undefined && usage !== undefined) free = `, and the browser allows this site ${megabytes(Math.max(0, quota - usage))} more`;
  } catch {
    // Without an estimate the message still says what was needed.
  }
  return `Browser storage is full: keeping these ${recordCount.toLocaleString('en-GB')} records on disk needs about ${megabytes(needed)}${free}. They are loaded, but a reload will read, parse and index their files again. Free some space (or reset the workspace) and load them again to keep them.`;
}

/** The saved workspace (its files as dropped) did not fit in IndexedDB: how much it needed, and what is free. */
export async function workspaceFullMessage(fileBytes: number, estimate?: () => Promise<{ readonly quota?: number; readonly usage?: number }>): Promise<string> {
  let free = '';
  try {
    const { quota, usage } = (await estimate?.()) ?? {};
    if (quota !== undefined && usage !== undefined) free = ` (the browser allows this site ${megabytes(Math.max(0, quota - usage))} more)`;
  } catch {
    // Without an estimate the message still says what was needed.
  }
  return `Browser storage is full: saving the loaded files needs about ${megabytes(fileBytes)}${free}, so loaded files and edits will not survive a reload. Free some space or reset.`;
}
