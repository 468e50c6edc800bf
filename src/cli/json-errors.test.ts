import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wordsText, type MessageWords } from '../core/messages';
import { EXIT } from './command';
import { main } from './main';

import { runMain } from './test-support/run-main';

const run = (cwd: string, ...args: string[]) => runMain(args, cwd);

describe('--json errors', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'cc-json-errors-'));
  writeFileSync(join(cwd, 'records.jsonl'), '{"id": "A-1"}\n');
  writeFileSync(join(cwd, 'contract.json'), '{}');

  it("are a JSON document on stdout, with the code and each issue's file, line and field, and nothing on stderr", async () => {
    const refused = await run(cwd, 'compile', '--records', 'records.jsonl', '--contract', 'contract.json', '--json');
    expect(refused.code).toBe(EXIT.invalid);
    expect(refused.stderr).toBe('');
    const { error } = JSON.parse(refused.stdout) as {
      error: {
        pass: string;
        code: string;
        message: string;
        words: MessageWords;
        issues: { file: string; line?: number; path: string }[];
      };
    };
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.words.code).toBe('FILE_PROBLEMS');
    expect(wordsText(error.words)).toBe(error.message);
    expect(error.issues[0]).toMatchObject({ file: expect.stringMatching(/records\.jsonl|contract\.json/) });
  });

  it('cover usage errors and unreadable receipts too', async () => {
    const usage = await run(cwd, 'drill', '--no-such-option', '--json');
    expect(usage.code).toBe(EXIT.invalid);
    expect(usage.stderr).toBe('');
    const refused = JSON.parse(usage.stdout) as { error: { code: string; message: string; words: MessageWords } };
    expect(refused.error).toMatchObject({
      code: 'USAGE',
      words: { code: 'UNKNOWN_OPTION_FOR', args: { option: '--no-such-option', command: 'drill' } },
    });
    expect(wordsText(refused.error.words)).toBe(refused.error.message);
    const unknown = await run(cwd, 'compil', '--json');
    expect(unknown.stderr).toBe('');
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      error: { code: 'USAGE', words: { code: 'UNKNOWN_COMMAND', args: { command: 'compil' } } },
    });
    const missing = await run(cwd, 'diff', 'a.json', 'b.json', '--json');
    expect(missing.stderr).toBe('');
    expect(JSON.parse(missing.stdout)).toMatchObject({
      error: { code: 'INVALID_INPUT', issues: [{ file: 'a.json' }] },
    });
  });

  it('carry the catalogue words for a run that threw, with no stack', async () => {
    const printed: string[] = [];
    const overflow = Object.assign(new RangeError('Maximum call stack size exceeded'), {
      stack: 'RangeError\n    at x.ts:1:1',
    });
    const crashOnce = (text: string) => {
      if (printed.length === 0) {
        printed.push('');
        throw overflow;
      }
      printed.push(text);
    };
    const code = await main(['--version', '--json'], { stdout: crashOnce, stderr: crashOnce, cwd });
    expect(code).toBe(EXIT.invalid);
    const { error } = JSON.parse(printed[1] ?? '') as { error: { code: string; message: string; words: MessageWords } };
    expect(error.code).toBe('INTERNAL');
    expect(error.words).toEqual({
      code: 'CLI_OUT_OF_ROOM',
      args: { reason: 'RangeError: Maximum call stack size exceeded' },
    });
    expect(error.message).toBe(wordsText(error.words));
    expect(printed.join('')).not.toContain('x.ts:1:1');
  });

  it('stay text without --json', async () => {
    const refused = await run(cwd, 'compile', '--records', 'records.jsonl', '--contract', 'contract.json');
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^error \[validate\] INVALID_INPUT/);
  });
});
