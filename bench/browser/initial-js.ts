import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface InitialJsFile {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface InitialJs {
  /** What was counted, in words, for the report. */
  readonly counted: string;
  readonly files: readonly InitialJsFile[];
  readonly bytes: number;
  readonly gzipBytes: number;
}

/**
 * The JavaScript the built `index.html` loads at startup: its module scripts and modulepreload links.
 * The worker chunk (started by `new Worker(new URL(…))`), lazy chunks and the wasm are not in the HTML,
 * so they are not counted. Gzip at level 9, as a static host would precompress.
 */
export function measureInitialJs(distDir: string): InitialJs {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const sources = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g))
    if (match[1]) sources.add(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g))
    if (match[1]) sources.add(match[1]);
  const files = [...sources].map((source) => {
    const text = readFileSync(join(distDir, source.replace(/^\.?\//, '')));
    return { file: source, bytes: text.byteLength, gzipBytes: gzipSync(text, { level: 9 }).byteLength };
  });
  return {
    counted:
      'module scripts and modulepreload links of the built index.html, gzip level 9; not the worker chunk, lazy chunks, CSS or wasm',
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
  };
}
