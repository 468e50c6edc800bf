import type { CompilerApi } from '../protocol';
import type { Session } from '../session';

/** A task of its own, as a message to a worker is one. */
const nextMessage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The session behind the page's API as a worker runs it: calls are taken one message at a time, in the order they
 * were sent, and a synchronous one (compile) holds up every message behind it. `posted` lists the calls as the page
 * made them, `calls` as the worker took them; `beforeCompile` decides when each compilation is taken.
 */
export function workerLikeApi(
  session: Session,
  { beforeCompile = () => Promise.resolve() }: { readonly beforeCompile?: () => Promise<void> } = {},
): { readonly api: Partial<CompilerApi>; readonly posted: string[]; readonly calls: string[] } {
  const posted: string[] = [];
  const calls: string[] = [];
  let queue: Promise<void> = Promise.resolve();
  const post = <T>(name: string, work: () => T): Promise<Awaited<T>> => {
    posted.push(name);
    // A compilation held back holds back every message behind it, as a long one does in the worker.
    const taken = queue.then(nextMessage).then(() => (name === 'compile' ? beforeCompile() : undefined));
    queue = taken;
    return taken.then(async (): Promise<Awaited<T>> => {
      calls.push(name);
      return await work();
    });
  };
  const api: Partial<CompilerApi> = {
    start: (restore, onChange) => post('start', () => session.start(restore, onChange)),
    select: (selection) => post('select', () => session.select(selection)),
    compile: (audience, shownCompilation) => post('compile', () => session.compile(audience, shownCompilation)),
    disclose: (audience) => post('disclose', () => session.disclose(audience)),
    awaitBaselines: (compilation, onProgress) =>
      post('awaitBaselines', () => session.awaitBaselines(compilation, onProgress)),
    queryTrace: (query) => post('queryTrace', () => session.queryTrace(query)),
    firstEvidenceAttempts: (compilation, audience) =>
      post('firstEvidenceAttempts', () => session.firstEvidenceAttempts(compilation, audience)),
    evidenceAttempts: (compilation, proposition, audience, offset) =>
      post('evidenceAttempts', () => session.evidenceAttempts(compilation, proposition, audience, offset)),
    receiptJson: () => post('receiptJson', () => session.receiptJson()),
    userViewJson: () => post('userViewJson', () => session.userViewJson()),
    loadFiles: (files, onProgress) =>
      post('loadFiles', () =>
        session.loadFiles(
          files.map((file) => ({ name: file.name, blob: file })),
          onProgress,
        ),
      ),
    freezeReceipt: () => post('freezeReceipt', () => session.freezeReceipt()),
    declareLateChange: (id) => post('declareLateChange', () => session.declareLateChange(id)),
    attemptContinue: () => post('attemptContinue', () => session.attemptContinue()),
    resetDrill: () => post('resetDrill', () => session.resetDrill()),
    checkReceipts: () => post('checkReceipts', () => session.checkReceipts()),
  };
  return { api, posted, calls };
}
