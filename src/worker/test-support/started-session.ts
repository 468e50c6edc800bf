import { sha256 } from '../../core/test-support/sha256';
import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import { createSession } from '../session';
import type { WorkspaceStorage } from '../workspace/workspace-storage';
import { memoryStorage } from './memory-storage';

/** A started session over the built-in scenarios, with storage in memory unless a test brings its own. */
export async function startedSession(compiler: SqliteCompiler, storage: WorkspaceStorage = memoryStorage()) {
  const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
  await session.start();
  return session;
}
