import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every .ts file under `dir` (relative to `root`), tests and test support left out when `withTests` is false. */
function sourceFiles(root: string, dir: string, withTests: boolean): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(join(root, at), { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (
        /\.tsx?$/.test(entry.name) &&
        (withTests || !(/\.test\.tsx?$/.test(entry.name) || path.includes('test-support')))
      )
        found.push(path);
    }
  };
  walk(dir);
  return found;
}

/** The repository paths (no extension) a file imports, type imports and re-exports included. */
function importsOf(root: string, file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => relative(root, resolve(root, dirname(file), fileName)).replace(/\.tsx?$/, ''));
}

/**
 * A module a store may not import: each runs a stage of the pipeline, which only `src/core/compile.ts` runs
 * (through `src/core/queries.ts`). Allowed: `1-validate/validate`, the records' reader (a store reads its records
 * back through it, PostgreSQL, or indexes the records it parsed, SQLite), and what a store is handed or answers
 * with: the admission plan, the admitting store's interface, the ranking.
 */
const STORE_FACING_MODULES = new Set([
  'src/core/phases/1-validate/validate',
  'src/core/phases/4-admit/admission-plan',
  'src/core/phases/4-admit/adapter',
  'src/core/phases/5-rank/ranking',
]);

function runsAStage(module: string): boolean {
  if (module === 'src/core/compile-stages' || module === 'src/core/queries') return true;
  return module.startsWith('src/core/phases/') && !STORE_FACING_MODULES.has(module);
}

/** Where the one-pipeline rule is broken under `root`: a store importing a stage, or the core importing a store. */
export function pipelineViolations(root: string): string[] {
  const violations: string[] = [];
  // The conformance suite is the certification harness, not a store: it runs the reference evaluator on purpose.
  for (const file of sourceFiles(root, 'src/adapters', false).filter(
    (path) => !path.startsWith('src/adapters/conformance/'),
  )) {
    for (const module of importsOf(root, file))
      if (runsAStage(module)) violations.push(`${file} runs a stage of its own: it imports ${module}`);
  }
  for (const file of sourceFiles(root, 'src/core', false)) {
    for (const module of importsOf(root, file))
      if (module.startsWith('src/adapters/')) violations.push(`${file} imports the store ${module}`);
  }
  return violations;
}

describe('one pipeline over one store interface', () => {
  it('no store imports a pass or the compile stages, and the core imports no store', () => {
    expect(pipelineViolations(ROOT)).toEqual([]);
  });

  it('names a store that admits through the evaluator, a second pipeline, and a core that reaches into a store', () => {
    const root = mkdtempSync(join(tmpdir(), 'one-pipeline-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      write(
        'src/adapters/other/compile.ts',
        "import { admit } from '../../core/phases/4-admit/admit';\nimport type { PreparedCompile } from '../../core/compile-stages';\n",
      );
      write(
        'src/adapters/other/records.ts',
        "import { createRecordSet } from '../../core/phases/1-validate/validate';\n",
      );
      write('src/adapters/other/compile.test.ts', "import { attest } from '../../core/phases/7-attest/attest';\n");
      write('src/core/compile.ts', "import { createSqliteStore } from '../adapters/sqlite/compiler';\n");
      expect(pipelineViolations(root)).toEqual([
        'src/adapters/other/compile.ts runs a stage of its own: it imports src/core/phases/4-admit/admit',
        'src/adapters/other/compile.ts runs a stage of its own: it imports src/core/compile-stages',
        'src/core/compile.ts imports the store src/adapters/sqlite/compiler',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
