import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../command';
import { evalCommand } from './eval-command';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text), cwd: process.cwd() },
    out,
    err,
  };
}

describe('eval command', () => {
  it('prints the seed 000 table', async () => {
    const { io, out } = capture();
    expect(await evalCommand.run(['seed000'], io)).toBe(EXIT.ok);
    expect(out.join('')).toMatch(/plain top-k\s+5\s+4\s+75 %/);
    expect(out.join('')).toMatch(/compiled \(admit first\)\s+4\s+0\s+100 %/);
  });

  it('emits growth JSON for the requested sizes, with progress kept off stdout', async () => {
    const { io, out, err } = capture();
    expect(await evalCommand.run(['growth', '--json', '--sizes', '100,200', '--seed', '3'], io)).toBe(EXIT.ok);
    const report = JSON.parse(out.join('')) as { growth: { seed: number; points: { size: number }[] } };
    expect(report.growth.seed).toBe(3);
    expect(report.growth.points.map((point) => point.size)).toEqual([100, 200]);
    expect(err.join('')).toContain('growth: 100 %');
  });

  // The whole evaluation, growth to 50,000 records included: one of the slowest unit tests (docs/TESTING.md).
  it(
    'writes docs/EVALUATION.md exactly as checked in (regenerate: npx context-compiler eval --markdown > docs/EVALUATION.md)',
    { timeout: 240_000 },
    async () => {
      const { io, out } = capture();
      expect(await evalCommand.run(['--markdown'], io)).toBe(EXIT.ok);
      expect(out.join('')).toBe(readFileSync(new URL('../../../docs/EVALUATION.md', import.meta.url), 'utf8'));
    },
  );

  it.each([
    [['nonsense']],
    [['seed000', '--markdown']],
    [['--markdown', '--json']],
    [['growth', '--sizes', '150']],
    [['growth', '--seed', '-1']],
    [['seed000', 'growth']],
    [['--unknown']],
  ])('refuses %j with exit 1 and the usage', async (args) => {
    const { io, err } = capture();
    expect(await evalCommand.run(args, io)).toBe(EXIT.invalid);
    expect(err.join('')).toContain('usage: context-compiler eval');
  });
});
