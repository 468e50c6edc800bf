import { describe, expect, it } from 'vitest';
import { inputIssue } from '../core/issues';
import { compileError, err, ok } from '../core/errors';
import { EXIT } from './command';
import { inputError, noPositionals, readCommandLine, usageError, type PositionalRule } from './options';

const USAGE = 'usage: context-compiler try [--name N] [--loud]';
const options = { name: { type: 'string' }, loud: { type: 'boolean', default: false } } as const;

function capture() {
  let stdout = '';
  let stderr = '';
  return {
    io: { stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text), cwd: '.' },
    out: () => stdout,
    err: () => stderr,
  };
}

const upToOne: PositionalRule<string | undefined> = (given) =>
  given.length > 1 ? err({ code: 'ONE_EXPERIMENT', args: { given } }) : ok(given[0]);

describe('readCommandLine', () => {
  it('returns the typed values and what the positional rule made of the rest, writing nothing', () => {
    const { io, out, err: errors } = capture();
    const line = readCommandLine(['--name', 'x', 'only'], io, {
      name: 'try',
      usage: USAGE,
      options,
      positionals: upToOne,
    });
    expect(line).toEqual({ ok: true, values: { name: 'x', loud: false, help: false }, positionals: 'only' });
    expect(out() + errors()).toBe('');
  });

  it.each([['--help'], ['-h'], ['--loud', '--help', 'stray', 'arguments']])(
    'prints the usage on stdout and exits 0 for %j',
    (...args) => {
      const { io, out, err: errors } = capture();
      expect(readCommandLine(args, io, { name: 'try', usage: USAGE, options, positionals: noPositionals })).toEqual({
        ok: false,
        exit: EXIT.ok,
      });
      expect(out()).toBe(`${USAGE}\n`);
      expect(errors()).toBe('');
    },
  );

  it.each([
    [['--colour'], /^unknown option --colour for try \(context-compiler try --help lists its options\)$/m],
    [
      ['--nmae', 'x'],
      /^unknown option --nmae for try; did you mean --name\? \(context-compiler try --help lists its options\)$/m,
    ],
    [['--name'], /--name <value>' argument missing/],
    [['--help', '--colour'], /^unknown option --colour for try/],
    [['stray'], /^unexpected argument stray$/m],
  ])('reports %j as a usage error: the problem, then the usage, on stderr, exit 1', (args, problem) => {
    const { io, out, err: errors } = capture();
    expect(readCommandLine(args, io, { name: 'try', usage: USAGE, options, positionals: noPositionals })).toEqual({
      ok: false,
      exit: EXIT.invalid,
    });
    expect(errors()).toMatch(problem);
    expect(errors().endsWith(`\n${USAGE}\n`)).toBe(true);
    expect(out()).toBe('');
  });

  it('reports what the positional rule refuses in the same form', () => {
    const { io, err: errors } = capture();
    expect(readCommandLine(['a', 'b'], io, { name: 'try', usage: USAGE, options, positionals: upToOne })).toEqual({
      ok: false,
      exit: EXIT.invalid,
    });
    expect(errors()).toBe(`one experiment at a time, got a b\n${USAGE}\n`);
  });
});

describe('usageError', () => {
  it('writes the problem and the usage to stderr and gives the usage exit code', () => {
    const { io, out, err: errors } = capture();
    expect(usageError(io, USAGE, { code: 'LIMIT_POSITIVE', args: { given: '0' } })).toBe(EXIT.invalid);
    expect(errors()).toBe(`--limit must be a positive integer, not 0\n${USAGE}\n`);
    expect(out()).toBe('');
  });
});

describe('inputError', () => {
  it('writes the error with the file, line and field it names to stderr and gives the invalid-input exit code', () => {
    const { io, out, err: errors } = capture();
    const error = compileError(
      {
        pass: 'validate',
        code: 'INVALID_INPUT',
        issues: [
          inputIssue({ file: 'b.json', line: 1, path: 'tokensUsed' }, 'FORMAT_RULE', { problem: 'expected a number' }),
        ],
      },
      'FILE_PROBLEMS',
      { file: 'b.json', kind: null, total: 1, shown: 1 },
    );
    expect(inputError(io, error)).toBe(EXIT.invalid);
    expect(errors()).toBe(
      'error [validate] INVALID_INPUT: b.json: 1 problem\n  b.json:1: tokensUsed: expected a number\n',
    );
    expect(out()).toBe('');
  });
});
