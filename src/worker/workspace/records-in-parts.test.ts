import { sha256 } from '../../core/test-support/sha256';
import { describe, expect, it, vi } from 'vitest';
import { buildRecord } from '../../core/test-support/builders';
import { LoadCancelled, streamRecords } from './file-intake';
import type { LoadProgress } from '../protocol';
import {
  answerPartRequest,
  lineBoundaryFrom,
  partFromJson,
  pieceCuts,
  readPart,
  readRecordsInParts,
  type PartReply,
  type StartPartHelper,
} from './records-in-parts';

const line = (id: string, text = `text of ${id}`) => JSON.stringify(buildRecord({ id, text }));
const file = (text: string) => ({ name: 'r.jsonl', blob: new Blob([text]) });
const never = new AbortController().signal;
const lines = (ids: readonly string[]) => ids.map((id) => `${line(id, `${id} ✓ é 😀`)}\n`).join('');

/**
 * A helper that reads its pieces in this process, as fast as this worker reads its own (or once `holdUntil`
 * resolves for the piece), and remembers what it was given. `failsAfter` pieces read, every later read rejects.
 */
function inProcessHelper({
  failsAfter = Infinity,
  holdUntil,
}: { failsAfter?: number; holdUntil?: (part: Blob) => Promise<void> } = {}) {
  const pieces: Promise<string>[] = [];
  let starts = 0;
  let ended = false;
  let endNow: (reason: Error) => void = () => undefined;
  const endedPromise = new Promise<never>((_, reject) => (endNow = reject));
  endedPromise.catch(() => undefined);
  const start: StartPartHelper = (name) => {
    starts += 1;
    return {
      read: async (part, onBytes) => {
        pieces.push(part.text());
        // Ending it rejects a read it holds, as terminating the real one does.
        await Promise.race([holdUntil?.(part), endedPromise]);
        if (ended || pieces.length > failsAfter) throw new Error('no helper');
        const result = await readPart(sha256, part, name, onBytes, never);
        // As the real helper sends it back: as JSON text.
        return result.ok ? partFromJson(JSON.stringify(result.value)) : null;
      },
      end: () => {
        ended = true;
        endNow(new Error('ended'));
      },
    };
  };
  return { start, pieces, starts: () => starts, ended: () => ended };
}

/** Every file is read in pieces (from one byte on), so the tests see the path large files take. */
const readInParts = (helper: StartPartHelper) => readRecordsInParts(helper, 1);
const onePass = (text: string) => streamRecords(sha256, file(text), () => undefined, never);
/**
 * Records with every kind of value a checked record holds: nulls, lists, evidence, fractions, instants with offsets.
 */
const manyLines = (count: number) =>
  Array.from({ length: count }, (_, index) => {
    const id = `r${index}`;
    const varied = index % 3 === 0 && {
      subject: 'cust-9',
      relevance: -0.125,
      validTo: '2027-01-01T09:30:00+02:00',
      supersedes: [`old-${index}`],
      evidence: { class: 'email', supports: ['p1'], contradicts: ['p2'] },
    };
    return `${JSON.stringify(buildRecord({ id, text: `${id} ✓ é 😀 "quoted"\t`, ...varied }))}\n`;
  }).join('');

describe('reading a records file in pieces from both ends at once', () => {
  it('gives what one pass gives, the helper reading whole-line pieces from the back', async () => {
    const text = manyLines(120) + `\n${line('last')}`;
    const helper = inProcessHelper();
    const progress: LoadProgress[] = [];
    const result = await readInParts(helper.start)(sha256, file(text), (item) => progress.push(item), never);
    expect(result).toEqual(await onePass(text));
    expect(helper.pieces.length).toBeGreaterThan(1);
    // Its pieces, last first, are the end of the file, cut just after a newline.
    const read = (await Promise.all(helper.pieces)).reverse().join('');
    expect(text.endsWith(read)).toBe(true);
    expect(text[text.length - read.length - 1]).toBe('\n');
    const size = new Blob([text]).size;
    expect(progress.at(-1)).toEqual({ file: 'r.jsonl', phase: 'reading', done: size, total: size });
    expect(progress.every((item, index) => index === 0 || item.done >= (progress[index - 1]?.done ?? 0))).toBe(true);
    expect(helper.ended()).toBe(true);
  });

  it('leaves the helper one piece when it is slow: this worker reads the rest', async () => {
    const text = manyLines(120);
    const size = new Blob([text]).size;
    let done = 0;
    const waiters: (() => void)[] = [];
    // The helper's first piece is held until this worker has read every other byte.
    const helper = inProcessHelper({
      holdUntil: (part) => new Promise((resolve) => waiters.push(() => done >= size - part.size && resolve())),
    });
    const progress = (item: LoadProgress) => {
      done = item.done;
      for (const waiter of waiters) waiter();
    };
    expect(await readInParts(helper.start)(sha256, file(text), progress, never)).toEqual(await onePass(text));
    expect(helper.pieces).toHaveLength(1);
  });

  it('words a problem in any piece as one pass does, lines counted from the start of the file', async () => {
    const ids = Array.from({ length: 30 }, (_, index) => `r${index}`);
    for (const broken of [3, 27]) {
      const text = lines(ids)
        .split('\n')
        .map((item, index) => (index === broken ? '{"id": 1}' : item))
        .join('\n');
      const result = await readInParts(inProcessHelper().start)(sha256, file(text), () => undefined, never);
      expect(result).toEqual(await onePass(text));
      expect(result.ok && result.value.unreadable.map((item) => item.location.line)).toEqual([broken + 1]);
    }
  });

  it('names both lines of an id given in two pieces', async () => {
    const text = lines(['a', 'b', 'c', 'd', 'a', 'e']);
    const result = await readInParts(inProcessHelper().start)(sha256, file(text), () => undefined, never);
    expect(result).toEqual(await onePass(text));
    expect(result.ok && result.value.duplicates.map((item) => [item.checked.record.id, item.location.line])).toEqual([
      ['a', 5],
    ]);
  });

  it('reads the pieces itself when the helper cannot, the one it failed on included', async () => {
    const text = manyLines(120);
    for (const failsAfter of [0, 2]) {
      const helper = inProcessHelper({ failsAfter });
      expect(await readInParts(helper.start)(sha256, file(text), () => undefined, never)).toEqual(await onePass(text));
      expect(helper.pieces).toHaveLength(failsAfter + 1);
    }
  });

  it('ends the helper and keeps nothing when the load is cancelled', async () => {
    const helper = inProcessHelper();
    const cancel = new AbortController();
    const reading = readInParts(helper.start)(sha256, file(manyLines(20)), () => cancel.abort(), cancel.signal);
    await expect(reading).rejects.toBeInstanceOf(LoadCancelled);
    expect(helper.ended()).toBe(true);
  });

  it('ends a helper still reading when it is cancelled while this worker waits for it', async () => {
    const text = manyLines(40);
    const size = new Blob([text]).size;
    let helperPiece = size;
    const helper = inProcessHelper({
      holdUntil: (part) => {
        helperPiece = part.size;
        return new Promise<void>(() => undefined);
      },
    });
    const cancel = new AbortController();
    let waiting = false;
    const reading = readInParts(helper.start)(
      sha256,
      file(text),
      ({ done }) => {
        // Every other piece read: this worker is about to wait for the helper's.
        if (done >= size - helperPiece) waiting = true;
      },
      cancel.signal,
    );
    await vi.waitFor(() => expect(waiting).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    cancel.abort();
    await expect(reading).rejects.toBeInstanceOf(LoadCancelled);
    expect(helper.ended()).toBe(true);
  });

  it('reads a small file, or one without a second line, in one pass', async () => {
    const helper = inProcessHelper();
    const text = lines(['a', 'b']);
    expect(await readRecordsInParts(helper.start)(sha256, file(text), () => undefined, never)).toEqual(
      await onePass(text),
    );
    expect(await readInParts(helper.start)(sha256, file(line('only')), () => undefined, never)).toEqual(
      await onePass(line('only')),
    );
    expect(helper.starts()).toBe(0);
  });
});

describe('pieceCuts', () => {
  it('cuts just after newlines into at most the pieces asked for, from 0 to the size', async () => {
    const text = manyLines(50);
    const blob = new Blob([text]);
    const cuts = await pieceCuts(blob, 8);
    expect(cuts[0]).toBe(0);
    expect(cuts.at(-1)).toBe(blob.size);
    expect(cuts.length).toBe(9);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    for (const cut of cuts.slice(1, -1)) expect(bytes[cut - 1]).toBe(0x0a);
    expect(cuts.every((cut, index) => index === 0 || cut > (cuts[index - 1] ?? 0))).toBe(true);
  });

  it('gives fewer pieces when lines are longer than a piece, and one for a single line', async () => {
    const long = `${'x'.repeat(1_000)}\n`;
    expect(await pieceCuts(new Blob([long.repeat(3)]), 32)).toEqual([0, 1_001, 2_002, 3_003]);
    expect(await pieceCuts(new Blob([long]), 32)).toEqual([0, 1_001]);
  });
});

describe('lineBoundaryFrom', () => {
  it('finds the byte after the next newline, however far past the first window it is', async () => {
    const long = 'x'.repeat(300_000);
    const blob = new Blob([`ab\n${long}\nc\n`]);
    expect(await lineBoundaryFrom(blob, 0)).toBe(3);
    expect(await lineBoundaryFrom(blob, 3)).toBe(3 + long.length + 1);
  });

  it('finds none when the only newline left ends the file', async () => {
    expect(await lineBoundaryFrom(new Blob(['ab\ncd\n']), 3)).toBeNull();
    expect(await lineBoundaryFrom(new Blob(['ab\ncd']), 3)).toBeNull();
  });

  it('cuts between characters: UTF-8 never uses the newline byte inside one', async () => {
    const text = 'é😀\n€\n';
    const blob = new Blob([text]);
    const boundary = await lineBoundaryFrom(blob, 1);
    expect(await blob.slice(0, boundary ?? 0).text()).toBe('é😀\n');
    expect(await blob.slice(boundary ?? 0).text()).toBe('€\n');
  });
});

describe('answerPartRequest (the helper)', () => {
  const answers = async (blob: Blob, reply?: (message: PartReply) => void) => {
    const replies: PartReply[] = [];
    await answerPartRequest(sha256, { blob, name: 'r.jsonl' }, (message) => {
      replies.push(message);
      reply?.(message);
    });
    return replies;
  };

  it('reports its progress, then the part it read, or that the part has a problem', async () => {
    const good = await answers(new Blob([lines(['a', 'b'])]));
    expect(good.at(-2)).toEqual({ kind: 'progress', done: new Blob([lines(['a', 'b'])]).size });
    const part = good.at(-1);
    expect(part?.kind).toBe('part');
    const direct = await readPart(sha256, new Blob([lines(['a', 'b'])]), 'r.jsonl', () => undefined, never);
    expect(part?.kind === 'part' && partFromJson(part.partJson)).toEqual(direct.ok && direct.value);
    expect(direct.ok && direct.value).toMatchObject({ lineCount: 2, lines: [1, 2] });
    expect((await answers(new Blob(['{"id": 1}\n']))).at(-1)).toEqual({ kind: 'refused' });
  });

  it('says why when the file cannot be read, or its records cannot be sent back, instead of never answering', async () => {
    const unreadable = {
      stream: () =>
        new ReadableStream({ pull: (controller) => controller.error(new Error('the file changed on disk')) }),
    } as unknown as Blob;
    expect(await answers(unreadable)).toEqual([{ kind: 'failed', reason: 'the file changed on disk' }]);
    const unsendable = await answers(new Blob([lines(['a'])]), (message) => {
      if (message.kind === 'part') throw new Error('could not be cloned');
    });
    expect(unsendable.at(-1)).toEqual({ kind: 'failed', reason: 'could not be cloned' });
  });
});
