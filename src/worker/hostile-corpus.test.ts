import { sha256 } from '../core/test-support/sha256';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_DIR, readManifest, type HostileCase } from '../../scripts/hostile-corpus/manifest';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { formatIssue } from '../core/errors';
import { sharedDriver } from '../core/test-support/node-driver';
import { readBuiltinScenarios } from './workspace/builtin-sources';
import { createSession, type Session } from './session';
import type { WorkspaceStorage } from './workspace/workspace-storage';

/**
 * Every file of fixtures/hostile/ through the worker session, as the app's file input hands it over:
 * the expected outcome, code and location, and after each file the workspace as it was (nothing
 * previously loaded lost, the same receipt on recompiling: no stale result).
 */
const manifest = readManifest();
const storage: WorkspaceStorage = {
  read: async () => undefined,
  write: async () => undefined,
  clear: async () => undefined,
  watch: () => undefined,
};
const blob = (name: string) => ({ name, blob: new Blob([readFileSync(`${HOSTILE_DIR}${name}`)]) });
const noProgress = () => undefined;
const EXIT_OF_ACTION = { continue: 0, recompile_required: 3, block: 2 } as const;

let session: Session;
let baseKey: string;
let baseReceipt: string;

async function compileBase(): Promise<string> {
  const compiled = await session.compile('diagnostic');
  if (!compiled.ok) throw new Error(`the base no longer compiles: ${compiled.error.message}`);
  return compiled.view.receiptId ?? '';
}

beforeAll(async () => {
  session = createSession({
    compiler: createSqliteCompiler(sha256, await sharedDriver()),
    storage,
    builtins: readBuiltinScenarios(sha256),
  });
  await session.start();
  const loaded = await session.loadFiles([blob(manifest.base.scenario)], noProgress);
  if (loaded.status !== 'loaded') throw new Error('the base scenario does not load');
  baseKey = loaded.snapshot.selection.scenarioKey;
  baseReceipt = await compileBase();
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function check(entry: HostileCase) {
  await session.select({ scenarioKey: baseKey, controls: [], lateChanges: [] });
  const wanted = { ...entry.expect, ...entry.app };
  const result = await session.loadFiles([blob(entry.file), ...entry.with.map(blob)], noProgress);
  if (result.status === 'rejected') {
    const text = [
      ...result.summaries.map((summary) => `${summary.file}: ${summary.message}`),
      ...result.issues.map(formatIssue),
    ].join('\n');
    expect({ exit: 1, text }).toMatchObject({ exit: wanted.exit });
    // The refused file is summarised: what it was read as, and its problems (a scenario's records file, for its
    // errors).
    expect(result.summaries.map((summary) => summary.file)).toContain(wanted.at?.file ?? entry.file);
    if (wanted.at)
      expect(text).toMatch(
        new RegExp(
          `^${escapeRegExp(wanted.at.file)}${wanted.at.line === undefined ? '(:\\d+)?' : `:${wanted.at.line}`}: ${escapeRegExp(wanted.at.path)}: `,
          'm',
        ),
      );
    if (wanted.message) expect(text).toContain(wanted.message);
  } else if (entry.kind === 'receipt') {
    expect(result.status).toBe('loaded');
    const verdict = result.status === 'loaded' ? result.receiptChecks[0]?.verdict : undefined;
    expect({ exit: verdict ? EXIT_OF_ACTION[verdict.action] : null, code: verdict?.code }).toEqual({
      exit: wanted.exit,
      code: wanted.code,
    });
  } else {
    expect(result.status).toBe('loaded');
    const snapshot = await session.select({
      ...(result.status === 'loaded' ? result.snapshot.selection : { scenarioKey: baseKey }),
      controls: entry.controls,
      lateChanges: [],
    });
    expect(snapshot.selection.controls).toEqual(entry.controls);
    const compiled = await session.compile('diagnostic');
    if (!compiled.ok) {
      expect({ exit: 1, code: compiled.error.code }).toEqual({ exit: wanted.exit, code: wanted.code });
      if (wanted.message)
        expect(`${compiled.error.message} ${(compiled.error.issues ?? []).map(formatIssue).join(' ')}`).toContain(
          wanted.message,
        );
    } else {
      // A records line that is not a record is inadmissible: the diagnostic view lists it where the CLI does.
      const { unreadable } = compiled.view;
      const code = unreadable.length > 0 ? 'EXCLUDE_UNREADABLE' : (compiled.view.failure?.code ?? null);
      expect({ exit: compiled.view.status === 'fail_closed' ? 2 : 0, code }).toEqual({
        exit: wanted.exit,
        code: wanted.code,
      });
      if (compiled.view.status === 'fail_closed') expect(compiled.view.packetText).toBeNull();
      const text = unreadable.map(formatIssue).join('\n');
      if (wanted.at && unreadable.length > 0)
        expect(text).toMatch(
          new RegExp(
            `^${escapeRegExp(wanted.at.file)}${wanted.at.line === undefined ? '(:\\d+)?' : `:${wanted.at.line}`}: ${escapeRegExp(wanted.at.path)}: `,
            'm',
          ),
        );
      if (wanted.message && unreadable.length > 0) expect(text).toContain(wanted.message);
    }
  }
  // Nothing that was loaded before is lost, and the base compiles to the receipt it had.
  const back = await session.select({ scenarioKey: baseKey, controls: [], lateChanges: [] });
  expect(back.selection.scenarioKey).toBe(baseKey);
  expect(await compileBase()).toBe(baseReceipt);
}

describe(`hostile corpus through the worker session (${manifest.cases.length} files)`, () => {
  for (const entry of manifest.cases) {
    const test = entry.knownBug === undefined ? it : it.fails;
    test(`${entry.file}: ${entry.about}`, () => check(entry), 60_000);
  }
});
