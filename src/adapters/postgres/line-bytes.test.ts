import { hash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createJsonlLineSplitter } from '../../core/format/input-files';
import type * as JsonText from '../../core/format/json-text';
import { ENGINE_VERSION } from '../../core/version';
import { utf8Text } from '../../cli/utf8-text';
import { createByteLineSplitter, createLineHasher } from './line-bytes';

// Short enough to reach with generated lines: both splitters read the same constant.
vi.mock('../../core/format/json-text', async (importOriginal) => ({
  ...(await importOriginal<typeof JsonText>()),
  MAX_LINE_CHARS: 40,
}));

type Cut = readonly ['line', number, string] | readonly ['overlong', number];

/** A small deterministic generator, so a failing file can be made again from its seed. */
function generator(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % below;
  };
}

const PIECES = [
  '{"id":"a"}',
  'plain ascii text',
  'é and ü',
  'emoji 😀 four bytes',
  '   ',
  '\t',
  '\u00a0\u3000',
  ' \u2028 ',
  '',
  'x'.repeat(39),
  'y'.repeat(41),
  'é'.repeat(30),
  '😀'.repeat(21),
];

function generatedFile(random: (below: number) => number): Buffer {
  const parts: Buffer[] = [];
  if (random(3) === 0) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  const lines = random(12);
  for (let index = 0; index < lines; index += 1) {
    parts.push(Buffer.from(PIECES[random(PIECES.length)] as string));
    if (random(6) === 0) parts.push(Buffer.from([0xff, 0xc3]));
    if (random(4) === 0) parts.push(Buffer.from('\r'));
    if (index < lines - 1 || random(2) === 0) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

function chunked(bytes: Buffer, random: (below: number) => number): Buffer[] {
  const chunks: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = Math.min(bytes.length, start + 1 + random(random(2) === 0 ? 3 : 90));
    chunks.push(Buffer.from(bytes.subarray(start, end)));
    start = end;
  }
  return chunks;
}

async function textCuts(chunks: readonly Buffer[]): Promise<Cut[]> {
  const cuts: Cut[] = [];
  const splitter = createJsonlLineSplitter({
    line: (text, number) => cuts.push(['line', number, text]),
    overlong: (number) => cuts.push(['overlong', number]),
  });
  async function* streamed(): AsyncGenerator<Uint8Array> {
    yield* chunks;
  }
  for await (const text of utf8Text(streamed())) splitter.push(text);
  splitter.finish();
  return cuts;
}

function byteCuts(chunks: readonly Buffer[]): Cut[] {
  const cuts: Cut[] = [];
  const splitter = createByteLineSplitter({
    line: (bytes, number) => cuts.push(['line', number, bytes.toString('utf8')]),
    overlong: (number) => cuts.push(['overlong', number]),
  });
  for (const chunk of chunks) splitter.push(chunk);
  splitter.finish();
  return cuts;
}

describe('a records file cut into lines as bytes', () => {
  it('gives the lines, numbers and overlong lines the text splitter gives, however the file is chunked', async () => {
    for (let seed = 1; seed <= 400; seed += 1) {
      const random = generator(seed);
      const file = generatedFile(random);
      const chunks = chunked(file, random);
      expect({ seed, cuts: byteCuts(chunks) }).toEqual({ seed, cuts: await textCuts(chunks) });
    }
  });

  it('drops a byte order mark split over chunks, and only at the start of the file', () => {
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n\ufeff{"b":2}')]);
    const cuts = byteCuts([...file].map((byte) => Buffer.from([byte])));
    expect(cuts).toEqual([
      ['line', 1, '{"a":1}'],
      ['line', 2, '\ufeff{"b":2}'],
    ]);
  });

  it('hands on lines as views of their chunk, not copies', () => {
    const chunk = Buffer.from('{"a":1}\n{"b":2}\n');
    const views: Buffer[] = [];
    const splitter = createByteLineSplitter({ line: (bytes) => views.push(bytes), overlong: () => undefined });
    splitter.push(chunk);
    splitter.finish();
    expect(views.map((view) => view.buffer === chunk.buffer)).toEqual([true, true]);
  });
});

describe('a line hash', () => {
  it('is the one a line was stored under before: SHA-256 of the engine version and the line as text', () => {
    const hashOf = createLineHasher();
    // A long line first, so the shorter ones after it are hashed in a buffer that held more.
    for (const text of ['{"id":"long"}'.repeat(9_000), '{"id":"r1","title":"é 😀"}', '', 'x']) {
      const expected = hash('sha256', `context-compiler ${ENGINE_VERSION}\n${text}`, 'hex');
      expect(hashOf(Buffer.from(text, 'utf8'))).toBe(expected);
    }
  });
});
