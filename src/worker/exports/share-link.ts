import { z } from 'zod';
import { err, formatPath, ok, type InputIssue, type Result } from '../../core/errors';
import { inputIssue } from '../../core/issues';
import { scenarioEditSchema } from '../../scenarios/record-edits';

/**
 * A share link carries the whole workspace in its fragment (after `#`, never sent to a server):
 * `#share=1.<base64url of the deflate-raw compressed JSON below>`. Opening it replaces the workspace.
 */
export const SHARE_FRAGMENT_PREFIX = 'share=1.';

/** Loaded files a link may carry, in UTF-8 bytes before compression. */
export const MAX_SHARED_FILE_BYTES = 256 * 1024;
/** The longest fragment created or opened; browsers take far longer URLs, chat tools and mail often do not. */
export const MAX_SHARE_FRAGMENT_CHARS = 200_000;
/** What a fragment may inflate to: a small link must not expand into gigabytes in the worker. */
const MAX_DECODED_BYTES = 2 * 1024 * 1024;

const SOURCE = 'share link';
const at = (path: string) => ({ file: SOURCE, path });

const sharedFileSchema = z.strictObject({ name: z.string().min(1).max(255), text: z.string() });

/**
 * What a pinned baseline or a frozen receipt was compiled from. The opener compiles it again rather than receiving
 * the receipt, whose trace names every record, withheld or not; the contract is validated when the link is opened.
 */
const sharedInputsSchema = z.strictObject({
  scenarioKey: z.string(),
  controls: z.array(z.string()),
  lateChanges: z.array(z.string()),
  contract: z.unknown(),
});

/** The screen the link was made on: the view and tabs, the pinned baseline and the drill. */
const sharedScreenSchema = z.strictObject({
  audience: z.enum(['user', 'diagnostic']),
  workspace: z.enum(['debugger', 'drill', 'evaluation', 'tests']),
  view: z.enum(['contract', 'compare', 'trace']),
  baseline: sharedInputsSchema.nullable(),
  /** The frozen receipt's inputs, the late changes declared since, and whether a verdict was on screen. */
  drill: z
    .strictObject({ frozen: sharedInputsSchema, declared: z.array(z.string()), attempted: z.boolean() })
    .nullable(),
});

export const sharedWorkspaceSchema = z.strictObject({
  version: z.literal(1),
  /** Each drop of files, in order, with the scenario it was dropped onto (a lone records file takes its contract). */
  loads: z.array(z.strictObject({ baseKey: z.string(), files: z.array(sharedFileSchema).min(1) })),
  contractEdits: z.record(z.string(), z.unknown()),
  /** Records replaced and changes authored in the app, per scenario key; absent when none. */
  recordEdits: z.record(z.string(), scenarioEditSchema).optional(),
  selection: z.strictObject({
    scenarioKey: z.string(),
    controls: z.array(z.string()),
    lateChanges: z.array(z.string()),
  }),
  /** The expectation suites open in the Tests panel, as their files; absent in links made before suites travelled. */
  suites: z.array(sharedFileSchema).optional(),
  /** The screen to open on; absent in links made before screens travelled (they open on the default screen). */
  screen: sharedScreenSchema.optional(),
});

export type SharedWorkspace = z.output<typeof sharedWorkspaceSchema>;
export type SharedScreen = z.output<typeof sharedScreenSchema>;
export type SharedInputs = z.output<typeof sharedInputsSchema>;

/** The bytes of the files a link carries: the loads' and the suites'. */
export function sharedFileBytes(workspace: SharedWorkspace): number {
  const encoder = new TextEncoder();
  const files = [...workspace.loads.flatMap((load) => load.files), ...(workspace.suites ?? [])];
  return files.reduce((bytes, file) => bytes + encoder.encode(file.text).byteLength, 0);
}

const kib = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString('en-GB')} KB`;

export function tooManyFileBytes(bytes: number): InputIssue {
  return inputIssue(at('loads'), 'LINK_FILES_TOO_LARGE', { size: kib(bytes), limit: kib(MAX_SHARED_FILE_BYTES) });
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

async function pipe(
  bytes: Uint8Array,
  transform: CompressionStream | DecompressionStream,
  limit: number,
): Promise<Uint8Array | null> {
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(transform).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}

/** The fragment (without `#`) for a workspace: compressed with CompressionStream, no server involved. */
export async function encodeShareFragment(workspace: SharedWorkspace): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(workspace));
  const compressed = await pipe(json, new CompressionStream('deflate-raw'), Number.POSITIVE_INFINITY);
  return `${SHARE_FRAGMENT_PREFIX}${toBase64Url(compressed ?? new Uint8Array())}`;
}

/** Reads a fragment back, refusing anything too long, not ours, corrupt or not in the schema: like any file. */
export async function decodeShareFragment(fragment: string): Promise<Result<SharedWorkspace, InputIssue[]>> {
  if (fragment.length > MAX_SHARE_FRAGMENT_CHARS) {
    return err([
      inputIssue(at('(root)'), 'LINK_TOO_LONG', { length: fragment.length, limit: MAX_SHARE_FRAGMENT_CHARS }),
    ]);
  }
  if (!fragment.startsWith(SHARE_FRAGMENT_PREFIX)) return err([inputIssue(at('(root)'), 'LINK_NOT_OURS')]);
  const bytes = fromBase64Url(fragment.slice(SHARE_FRAGMENT_PREFIX.length));
  if (bytes === null) return err([inputIssue(at('(root)'), 'LINK_NOT_BASE64')]);
  let inflated: Uint8Array | null;
  try {
    inflated = await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_DECODED_BYTES);
  } catch {
    return err([inputIssue(at('(root)'), 'LINK_NOT_DEFLATE')]);
  }
  if (inflated === null)
    return err([inputIssue(at('(root)'), 'LINK_EXPANDS_TOO_FAR', { limit: kib(MAX_DECODED_BYTES) })]);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflated));
  } catch {
    return err([inputIssue(at('(root)'), 'LINK_NOT_JSON')]);
  }
  const parsed = sharedWorkspaceSchema.safeParse(value);
  if (!parsed.success)
    return err(
      parsed.error.issues
        .slice(0, 50)
        .map((problem) => inputIssue(at(formatPath(problem.path)), 'FORMAT_RULE', { problem: problem.message })),
    );
  const bytesOfFiles = sharedFileBytes(parsed.data);
  if (bytesOfFiles > MAX_SHARED_FILE_BYTES) return err([tooManyFileBytes(bytesOfFiles)]);
  return ok(parsed.data);
}
