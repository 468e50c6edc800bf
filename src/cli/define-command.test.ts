import { describe, expect, it } from 'vitest';
import { err, ok } from '../core/errors';
import { EXIT } from './command';
import { defineCommand } from './define-command';
import type { PositionalRule } from './options';

const USAGE = 'usage: context-compiler try [--name N] [NAME]';

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

/** A command whose body reports what it was handed, and refuses --name bad through the shared usage error. */
function tryCommand(ran: string[]) {
  return defineCommand({
    name: 'try',
    summary: 'a command for the test',
    usage: USAGE,
    options: { name: { type: 'string' } } as const,
    positionals: upToOne,
    async run({ values, positionals, usageError }, io) {
      if (values.name === 'bad') return usageError('UNKNOWN_EXPERIMENT', { name: 'bad' });
      ran.push(`${values.name ?? '-'} ${positionals ?? '-'}`);
      io.stdout('ran\n');
      return EXIT.ok;
    },
  });
}

describe('defineCommand', () => {
  it('keeps the declared name, summary and usage for the overview and help', () => {
    const command = tryCommand([]);
    expect([command.name, command.summary, command.usage]).toEqual(['try', 'a command for the test', USAGE]);
  });

  it('runs the body with the typed values and what the positional rule made of the rest', async () => {
    const ran: string[] = [];
    const { io, out, err: errors } = capture();
    expect(await tryCommand(ran).run(['--name', 'x', 'only'], io)).toBe(EXIT.ok);
    expect(ran).toEqual(['x only']);
    expect(out()).toBe('ran\n');
    expect(errors()).toBe('');
  });

  it('answers --help with the usage on stdout, exit 0, without running the body', async () => {
    const ran: string[] = [];
    const { io, out, err: errors } = capture();
    expect(await tryCommand(ran).run(['--name', 'bad', '-h'], io)).toBe(EXIT.ok);
    expect(ran).toEqual([]);
    expect(out()).toBe(`${USAGE}\n`);
    expect(errors()).toBe('');
  });

  it.each([
    [['--colour'], /^unknown option --colour for try /],
    [['a', 'b'], /^one experiment at a time, got a b\n/],
    [['--name', 'bad'], /^unknown experiment "bad"\n/],
  ])('reports %j as a usage error: the problem, then the usage, on stderr, exit 1', async (args, problem) => {
    const ran: string[] = [];
    const { io, out, err: errors } = capture();
    expect(await tryCommand(ran).run(args, io)).toBe(EXIT.invalid);
    expect(ran).toEqual([]);
    expect(errors()).toMatch(problem);
    expect(errors().endsWith(`\n${USAGE}\n`)).toBe(true);
    expect(out()).toBe('');
  });
});
