const MB = 1024 * 1024;

const megabytes = (bytes: number) => `${Math.max(1, Math.ceil(bytes / MB)).toLocaleString('en-GB')} MB`;

/** Whether an error says the disk or the origin's quota is full, in SQLite's words or the browser's. */
export function isQuotaError(error: unknown): boolean {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  return name === 'QuotaExceededError' || /SQLITE_FULL|disk is full|quota/i.test(message);
}

/**
 * What to tell the user when the workspace database's image could not be written to disk: for a full disk
 * (the browser's or SQLite's words, or less space left than the image needs) how much space it needed.
 */
export async function databaseFullMessage(
  error: unknown,
  imageBytes: number,
  estimate?: () => Promise<{ readonly quota?: number; readonly usage?: number }>,
): Promise<string> {
  let free: number | null = null;
  try {
    const { quota, usage } = (await estimate?.()) ?? {};
    if (quota !== undefined && usage !== undefined) free = Math.max(0, quota - usage);
  } catch {
    // Without an estimate only the error can say whether the disk was full.
  }
  // The pool's VFS reports a refused write as a plain I/O error: the estimate tells a full disk from another failure.
  if (!isQuotaError(error) && (free === null || free >= imageBytes)) {
    return `The workspace database could not be saved on disk (${error instanceof Error ? error.message : String(error)}): everything is loaded, but a reload will read, parse and index the loaded files again.`;
  }
  const allows = free === null ? '' : `, and the browser allows this site ${megabytes(free)} more`;
  return `Browser storage is full: keeping the workspace database on disk needs about ${megabytes(imageBytes)}${allows}. Everything is loaded, but a reload will read, parse and index the loaded files again. Free some space (or reset the workspace) and load the files again to keep them.`;
}

/** The saved workspace (its files as dropped) did not fit in IndexedDB: how much it needed, and what is free. */
export async function workspaceFullMessage(
  fileBytes: number,
  estimate?: () => Promise<{ readonly quota?: number; readonly usage?: number }>,
): Promise<string> {
  let free = '';
  try {
    const { quota, usage } = (await estimate?.()) ?? {};
    if (quota !== undefined && usage !== undefined)
      free = ` (the browser allows this site ${megabytes(Math.max(0, quota - usage))} more)`;
  } catch {
    // Without an estimate the message still says what was needed.
  }
  return `Browser storage is full: saving the loaded files needs about ${megabytes(fileBytes)}${free}, so loaded files and edits will not survive a reload. Free some space or reset.`;
}
