import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Sends one file of the built app, or answers false when there is none at `path`. A path that would leave
 * the folder (`..`, an encoded slash) is treated as absent. Hashed assets are cached for a year; the page,
 * the service worker and the manifest are revalidated on every visit, so an update reaches the user.
 */
export async function serveStatic(
  root: string,
  path: string,
  headOnly: boolean,
  response: ServerResponse,
  headers: Record<string, string>,
): Promise<boolean> {
  let relative: string;
  try {
    relative = decodeURIComponent(path === '/' ? '/index.html' : path);
  } catch {
    return false;
  }
  if (relative.includes('\0') || relative.includes('\\')) return false;
  const file = normalize(join(root, relative));
  if (!file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return false;
  const found = await stat(file).catch(() => null);
  if (found === null || !found.isFile()) return false;
  const immutable = relative.startsWith('/assets/');
  response.writeHead(200, {
    ...headers,
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(found.size),
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (headOnly) {
    response.end();
    return true;
  }
  await new Promise<void>((resolve) => {
    const stream = createReadStream(file);
    stream.on('error', () => {
      response.destroy();
      resolve();
    });
    stream.on('end', resolve);
    stream.pipe(response);
  });
  return true;
}
