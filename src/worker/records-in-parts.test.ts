import { describe, expect, it } from 'vitest';
import { buildRecord } from '../core/test-support/builders';
import { LoadCancelled, streamRecords } from './file-intake';
import type { LoadProgress } from './protocol';
import { answerPartRequest, lineBoundaryFrom, readPart, readRecordsInParts, type PartReader, type PartReply } from './records-in-parts';

const line = (id: string, text = `text of ${id}`) => JSON.stringify(buildRecord({ id, text }));
const file = (text: string) => ({ name: 'r.jsonl', blob: new Blob([text]) });
const never = new AbortController().signal;
const lines = (ids: readonly string[]) => ids.map((id) => `${line(id, `${id} ✓ é 😀`)}\n`).join('');

/** A helper that reads its part in this process, a turn later, and remembers what it was given. */
function inProcessHelper(behaviour: 'reads' | 'fails' = 'reads') {
  const calls: { text: Promise<string>; signal: AbortSignal }[] = [];
  const read: PartReader = async (part, name, onBytes, signal) => {
    calls.push({ text: part.text(), signal });
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (behaviour === 'fails' || signal.aborted) throw new Error('no helper');
    const result = await readPart(part, name, onBytes, signal);
    return result.ok ? result.value : null;
  };
  return { read, calls };
}

/** Every file is read in parts (from one byte on), so the tests see the path large files take. */
const readInParts = (helper: PartReader) => readRecordsInParts(helper, 1);

describe('reading a records file in two parts at once', () => {
  it('gives what one pass gives, the second half read by the helper from a line boundary', async () => {
    const text = lines(Array.from({ length: 41 }, (_, index) => `r${index}`)) + `\n${line('last')}`;
    const helper = inProcessHelper();
    const progress: LoadProgress[] = [];
    const result = await readInParts(helper.read)(file(text), (item) => progress.push(item), never);
    expect(result).toEqual(await streamRecords(file(text), () => undefined, never));
    expect(helper.calls).toHaveLength(1);
    const second = await helper.calls[0]?.text;
    expect(text.endsWith(second ?? 'missing')).toBe(true);
    expect(text[text.length - (second?.length ?? 0) - 1]).toBe('\n');
    expect(progress.at(-1)).toEqual({ file: 'r.jsonl', phase: 'reading', done: new Blob([text]).size, total: new Blob([text]).size });
  });

  it('words a problem in either half as one pass does, lines counted from the start of the file', async () => {
    const ids = Array.from({ length: 30 }, (_, index) => `r${index}`);
    for (const broken of [3, 27]) {
      const text = lines(ids).split('\n').map((item, index) => (index === broken ? '{"id": 1}' : item)).join('\n');
      const helper = inProcessHelper();
      const result = await readInParts(helper.read)(file(text), () => undefined, never);
      expect(result).toEqual(await streamRecords(file(text), () => undefined, never));
      expect(result.ok).toBe(false);
    }
  });

  it('names both lines of an id given once in each half', async () => {
    const text = lines(['a', 'b', 'c', 'd', 'a', 'e']);
    const result = await readInParts(inProcessHelper().read)(file(text), () => undefined, never);
    expect(result.ok ? null : result.error.issues).toEqual([{ file: 'r.jsonl', line: 5, path: 'id', message: 'duplicate id "a": first defined at line 1' }]);
  });

  it('reads the second half itself when the helper cannot', async () => {
    const text = lines(Array.from({ length: 20 }, (_, index) => `r${index}`));
    const result = await readInParts(inProcessHelper('fails').read)(file(text), () => undefined, never);
    expect(result).toEqual(await streamRecords(file(text), () => undefined, never));
  });

  it('stops the helper and keeps nothing when the load is cancelled', async () => {
    const text = lines(Array.from({ length: 20 }, (_, index) => `r${index}`));
    const helper = inProcessHelper();
    const cancel = new AbortController();
    const reading = readInParts(helper.read)(file(text), () => cancel.abort(), cancel.signal);
    await expect(reading).rejects.toBeInstanceOf(LoadCancelled);
    expect(helper.calls[0]?.signal.aborted).toBe(true);
  });

  it('reads a small file, or one without a second line, in one pass', async () => {
    const helper = inProcessHelper();
    const text = lines(['a', 'b']);
    expect(await readRecordsInParts(helper.read)(file(text), () => undefined, never)).toEqual(await streamRecords(file(text), () => undefined, never));
    expect(await readInParts(helper.read)(file(line('only')), () => undefined, never)).toEqual(await streamRecords(file(line('only')), () => undefined, never));
    expect(helper.calls).toHaveLength(0);
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
    await answerPartRequest({ blob, name: 'r.jsonl' }, (message) => {
      replies.push(message);
      reply?.(message);
    });
    return replies;
  };

  it('reports its progress, then the part it read, or that the part has a problem', async () => {
    const good = await answers(new Blob([lines(['a', 'b'])]));
    expect(good.at(-2)).toEqual({ kind: 'progress', done: new Blob([lines(['a', 'b'])]).size });
    expect(good.at(-1)).toMatchObject({ kind: 'part', part: { lineCount: 2, lines: [1, 2] } });
    expect((await answers(new Blob(['{"id": 1}\n']))).at(-1)).toEqual({ kind: 'refused' });
  });

  it('says why when the file cannot be read, or its records cannot be sent back, instead of never answering', async () => {
    const unreadable = { stream: () => new ReadableStream({ pull: (controller) => controller.error(new Error('the file changed on disk')) }) } as unknown as Blob;
    expect(await answers(unreadable)).toEqual([{ kind: 'failed', reason: 'the file changed on disk' }]);
    const unsendable = await answers(new Blob([lines(['a'])]), (message) => {
      if (message.kind === 'part') throw new Error('could not be cloned');
    });
    expect(unsendable.at(-1)).toEqual({ kind: 'failed', reason: 'could not be cloned' });
  });
});
