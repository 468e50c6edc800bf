import { watch, type FSWatcher } from 'node:fs';
import { wordMessage } from '../core/messages';
import { dirname } from 'node:path';
import type { CliIo, ExitCode } from './command';
import type { SuiteFile } from './load-suite';

/** How long a burst of file events (an editor's save writes several) waits before one run. */
const SETTLE_MS = 150;

/**
 * `test --watch`: runs once, then again whenever a file changes in a folder that holds a suite (where its
 * scenario, records and contract files are read from), until the user stops it. Runs never overlap.
 */
export async function watchSuites(
  files: readonly SuiteFile[],
  runOnce: () => Promise<ExitCode>,
  io: CliIo,
  untilStopped: () => Promise<void>,
): Promise<ExitCode> {
  let last = await runOnce();
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  const again = () => {
    const names = [...changed];
    changed.clear();
    running = running.then(async () => {
      io.stderr(`\n${wordMessage('CHANGED_RUNNING_AGAIN', { names })}\n`);
      last = await runOnce();
    });
  };
  const watchers: FSWatcher[] = [...new Set(files.map((file) => dirname(file.path)))].map((folder) =>
    watch(folder, (_event, name) => {
      changed.add(name === null ? folder : String(name));
      clearTimeout(timer);
      timer = setTimeout(again, SETTLE_MS);
    }),
  );
  io.stderr(`${wordMessage('WATCHING', { folders: watchers.length })}\n`);
  await untilStopped();
  clearTimeout(timer);
  for (const watcher of watchers) watcher.close();
  await running;
  return last;
}
