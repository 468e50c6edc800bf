import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The docs name files and link to each other; a rename that forgets them leaves a newcomer opening nothing.
const ROOT = join(import.meta.dirname, '..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
/** Written by a build or a run, so absent from a fresh clone: named in the docs, never checked in. */
const GENERATED = [
  'dist/',
  'dist-cli/',
  'dist-lib/',
  'bench/results/',
  'test-results/',
  'node_modules/',
  'bench/.cache/',
  'bench/browser/.dist/',
];
/**
 * Source folders a doc may name a path relative to (the one-record walk names
 * `core/phases/6-plan-packet/plan-packet.ts`).
 */
const BASES = ['', 'src/'];
const SOURCE_FILE = /\.(ts|tsx|mjs|js|sh)$/;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading?.[1] === undefined) continue;
    anchors.add(
      heading[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return anchors;
}

/** The text outside fenced code blocks, where prose names files. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

function allFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    return entry.isDirectory() ? allFiles(path) : [path];
  });
}

const TOP_LEVEL = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => entry.name);
const SOURCE_NAMES = new Set([
  ...TOP_LEVEL,
  ...['src', 'e2e', 'scripts', 'bench', 'bin'].flatMap(allFiles).map((path) => path.slice(path.lastIndexOf('/') + 1)),
]);

function brokenLinks(doc: string): string[] {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const broken: string[] = [];
  for (const match of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] ?? '';
    if (/^[a-z]+:/.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? join(ROOT, doc) : join(ROOT, dirname(doc), path);
    if (!existsSync(file)) broken.push(`${doc}: link to ${target}: no such file`);
    else if (anchor !== undefined && statSync(file).isFile() && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
      broken.push(`${doc}: link to ${target}: no heading #${anchor} in ${relative(ROOT, file)}`);
    }
  }
  return broken;
}

function missingPaths(doc: string): string[] {
  const missing: string[] = [];
  for (const match of prose(readFileSync(join(ROOT, doc), 'utf8')).matchAll(/`([^`\s]+)`/g)) {
    const span = match[1] ?? '';
    if (/[<>*{}$]|:\/\/|^\/|^\.\.?\//.test(span) || GENERATED.some((folder) => span.startsWith(folder))) continue;
    if (span.includes('/')) {
      // A path ends in a file name with an extension or in a slash; `n/a` and `context-compiler/3` are neither.
      if (!/^[\w.-]+(\/[\w.-]+)*(\.\w+|\/)$/.test(span)) continue;
      if (!BASES.some((base) => existsSync(join(ROOT, base, span)))) missing.push(`${doc}: \`${span}\` does not exist`);
    } else if (SOURCE_FILE.test(span) && !SOURCE_NAMES.has(span)) {
      missing.push(`${doc}: \`${span}\` is no file at the top or in src, e2e, scripts, bench or bin`);
    }
  }
  return missing;
}

describe('the docs', () => {
  it.each(DOCS)('%s links only to files and headings that exist', (doc) => {
    expect(brokenLinks(doc)).toEqual([]);
  });

  it.each([
    ['docs/ARCHITECTURE.md', 200],
    ['docs/PERFORMANCE.md', 300],
  ] as const)('%s stays within %i lines', (doc, limit) => {
    expect(readFileSync(join(ROOT, doc), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(limit);
  });

  // A newcomer reads these three before changing anything: fifteen minutes, not two hours.
  it('README, ARCHITECTURE and TESTING stay within 4,000 words together, ARCHITECTURE within 1,000', () => {
    const words = (doc: string) => readFileSync(join(ROOT, doc), 'utf8').split(/\s+/).filter(Boolean).length;
    expect(words('README.md') + words('docs/ARCHITECTURE.md') + words('docs/TESTING.md')).toBeLessThanOrEqual(4_000);
    expect(words('docs/ARCHITECTURE.md')).toBeLessThanOrEqual(1_000);
  });

  // The references are looked things up in, not read through: each opens with a list of its own sections.
  it.each(['docs/FORMAT.md', 'docs/ADAPTERS.md'])('%s opens with a contents list naming every section', (doc) => {
    const text = prose(readFileSync(join(ROOT, doc), 'utf8'));
    const sections = [...text.matchAll(/^## (.*)$/gm)].map((match) => match[1] ?? '');
    expect(sections[0]).toBe('Contents');
    const contents = text.slice(text.indexOf('## Contents'), text.indexOf(`## ${sections[1] ?? ''}`));
    const listed = new Set([...contents.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]));
    const unlisted = sections.slice(1).filter((section) => !listed.has([...anchorsOf(`## ${section}`)][0]));
    expect(unlisted).toEqual([]);
  });

  // A reviewer follows one dropped file to its row on screen by opening the files the walk names, in its order.
  it("ARCHITECTURE's walk names each file from the drop to the trace row, and says how many", () => {
    const text = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    const start = text.indexOf('## One dropped file, from the page to its row on screen');
    expect(start).toBeGreaterThan(-1);
    const walk = text.slice(start, text.indexOf('The CLI (', start));
    const files = [...new Set([...walk.matchAll(/`([\w./-]+\.tsx?)`/g)].map((match) => match[1] ?? ''))];
    expect(files.filter((file) => !existsSync(join(ROOT, 'src', file)))).toEqual([]);
    expect(files[0]).toBe('app/components/DropZone.tsx');
    expect(files.at(-1)).toBe('app/components/TracePanel.tsx');
    expect(walk).toContain(`${files.length} files`);
  });

  it.each(DOCS)('%s names only paths that exist', (doc) => {
    expect(missingPaths(doc)).toEqual([]);
  });
});
