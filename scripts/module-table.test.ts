import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../eslint.config.js';

// docs/ARCHITECTURE.md's module table is what a newcomer reads; eslint.config.js's MODULES is what lint enforces.
const ROOT = join(import.meta.dirname, '..');

interface Row {
  readonly path: string;
  readonly mayImport: readonly string[];
  readonly typesFrom: readonly string[];
}

/** The table under "Modules and what may import what": first column the folder, last the folders it may import. */
function tableRows(markdown: string): Row[] {
  const section = markdown.slice(markdown.indexOf('## Modules and what may import what'));
  const table = section.slice(0, section.search(/\n\n(?!\|)/) + 1);
  return table
    .split('\n')
    .filter((line) => /^\| `src\//.test(line))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      const folder = /`(src\/[^`]+?)\/?`/.exec(cells[1] ?? '')?.[1] ?? '';
      const allowed = cells[cells.length - 2] ?? '';
      const typesPart = allowed.includes('types from') ? allowed.slice(allowed.indexOf('types from')) : '';
      const valuesPart = allowed.slice(0, allowed.length - typesPart.length);
      const folders = (text: string) => [...text.matchAll(/`(src\/[^`]+?)\/?`/g)].map((match) => match[1] ?? '');
      return { path: folder, mayImport: folders(valuesPart), typesFrom: folders(typesPart) };
    });
}

/** Every folder under src/ that holds code, with src/adapters/ split into its stores. */
function sourceFolders(): string[] {
  const folders: string[] = [];
  for (const name of readdirSync(join(ROOT, 'src'))) {
    if (!statSync(join(ROOT, 'src', name)).isDirectory()) continue;
    if (name === 'adapters')
      for (const store of readdirSync(join(ROOT, 'src', name))) {
        if (statSync(join(ROOT, 'src', name, store)).isDirectory()) folders.push(`src/adapters/${store}`);
      }
    else folders.push(`src/${name}`);
  }
  return folders.sort();
}

const sorted = (rows: readonly Row[]) =>
  rows
    .map((row) => ({ path: row.path, mayImport: [...row.mayImport].sort(), typesFrom: [...row.typesFrom].sort() }))
    .sort((a, b) => a.path.localeCompare(b.path));

describe('the module table', () => {
  it('in docs/ARCHITECTURE.md says what lint enforces, row for row', () => {
    const documented = tableRows(readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8'));
    const enforced = MODULES.map((row) => ({ ...row, typesFrom: row.typesFrom ?? [] }));
    expect(sorted(documented)).toEqual(sorted(enforced));
  });

  it('has a row with an import rule for every folder in src/', () => {
    expect(MODULES.map((row) => row.path).sort()).toEqual(sourceFolders());
  });

  it('reads a table row the way the docs write it', () => {
    const markdown =
      '## Modules and what may import what\n\n| folder | what | may import |\n| --- | --- | --- |\n| `src/app/` | the page | `src/core/`, `src/shared/`; types from `src/worker/` |\n| `src/core/` | pure | — |\n\nAfter.';
    expect(tableRows(markdown)).toEqual([
      { path: 'src/app', mayImport: ['src/core', 'src/shared'], typesFrom: ['src/worker'] },
      { path: 'src/core', mayImport: [], typesFrom: [] },
    ]);
  });
});
