import type { Sha256 } from '../core/fingerprints';
import { sha256 } from '../core/test-support/sha256';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { sharedDriver } from '../core/test-support/node-driver';
import type { EvaluationApi, RememberedResult } from './protocol';
import { createSession, startWorker, type Session, type WorkerStartDeps } from './session';
import { memoryStorage } from './test-support/memory-storage';
import { readBuiltinScenarios } from './workspace/builtin-sources';

let compiler: SqliteCompiler;

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (reason: unknown) => void = () => undefined;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const noEvaluation: WorkerStartDeps['evaluation'] = () => {
  const refuse = () => Promise.reject(new Error('no evaluation in this test'));
  return {
    runSeed000: refuse,
    runScenarioComparison: refuse,
    runGrowth: refuse,
    runFoundation: refuse,
    cancelEvaluation: async () => undefined,
  } satisfies EvaluationApi;
};

const heldLocks = (): WorkerStartDeps['locks'] & { readonly held: string[] } => {
  const held: string[] = [];
  return {
    held,
    request: async (name, whileHeld) => {
      held.push(name);
      return whileHeld();
    },
  };
};

const session = () => createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });

describe('the worker start', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('holds the lifeline and reads the remembered result before the session opens, and opens it only after that read', async () => {
    const hashing = deferred<Sha256>();
    const opening = deferred<Session>();
    const openSession = vi.fn(() => opening.promise);
    const remembered: RememberedResult | null = null;
    const readRemembered = vi.fn(async () => remembered);
    const locks = heldLocks();
    const api = startWorker({ sha256: hashing.promise, readRemembered, openSession, evaluation: noEvaluation, locks });

    await api.holdLifeline('lifeline');
    expect(locks.held).toEqual(['lifeline']);
    // The remembered result's key is a SHA-256: nothing is read before the hasher is installed.
    await Promise.resolve();
    expect(readRemembered).not.toHaveBeenCalled();
    hashing.resolve(sha256);
    expect(await api.rememberedResult()).toBeNull();
    await vi.waitFor(() => expect(openSession).toHaveBeenCalledTimes(1));
    opening.resolve(session());
    expect((await api.start(null, () => undefined)).selection.scenarioKey).toBe('retry-policy');
  });

  it('answers a call sent after start only once the workspace is restored', async () => {
    const restoring = deferred<void>();
    const opened = session();
    const start = opened.start;
    const order: string[] = [];
    const slowStart: typeof start = async (...args) => {
      await restoring.promise;
      const snapshot = await start(...args);
      order.push('restored');
      return snapshot;
    };
    const api = startWorker({
      sha256: Promise.resolve(sha256),
      readRemembered: async () => null,
      openSession: async () => ({ ...opened, start: slowStart }),
      evaluation: noEvaluation,
      locks: heldLocks(),
    });
    const started = api.start(null, () => undefined);
    const selected = api.select({ scenarioKey: 'refund-desk', controls: [], lateChanges: [] }).then((snapshot) => {
      order.push('selected');
      return snapshot;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    restoring.resolve();
    await started;
    expect((await selected).selection.scenarioKey).toBe('refund-desk');
    expect(order).toEqual(['restored', 'selected']);
  });

  it('rejects every call that needs the session when it cannot open, without an unhandled rejection', async () => {
    const api = startWorker({
      sha256: Promise.resolve(sha256),
      readRemembered: async () => null,
      openSession: () => Promise.reject(new Error('SQLite could not load')),
      evaluation: noEvaluation,
      locks: heldLocks(),
    });
    await expect(api.start(null, () => undefined)).rejects.toThrow('SQLite could not load');
    await expect(api.compile('diagnostic')).rejects.toThrow('SQLite could not load');
    // What the entry answers itself does not wait for the session.
    expect(await api.rememberedResult()).toBeNull();
  });

  it('reads dropped File objects into the named blobs the session loads', async () => {
    const api = startWorker({
      sha256: Promise.resolve(sha256),
      readRemembered: async () => null,
      openSession: async () => session(),
      evaluation: noEvaluation,
      locks: heldLocks(),
    });
    await api.start(null, () => undefined);
    const result = await api.loadFiles([new File(['{'], 'broken.json')], () => undefined);
    expect(result.status).toBe('rejected');
    if (result.status === 'rejected') expect(result.issues[0]?.file).toBe('broken.json');
  });
});
