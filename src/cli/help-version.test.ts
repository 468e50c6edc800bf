import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { EXIT } from './command';

import { runMain } from './test-support/run-main';

const run = (...args: string[]) => runMain(args, process.cwd());

describe('--version and help <command>', () => {
  it("prints the one version, package.json's, which receipts carry as the engine version", async () => {
    const printed = await run('--version');
    expect(printed).toMatchObject({ code: EXIT.ok, stdout: `${packageJson.version}\n`, stderr: '' });
    const compiled = await run('compile', '--json');
    expect((JSON.parse(compiled.stdout) as { receipt: { engineVersion: string } }).receipt.engineVersion).toBe(
      packageJson.version,
    );
  });

  it("prints a command's own help for help <command>, the same as <command> --help", async () => {
    const help = await run('help', 'drill');
    expect(help.code).toBe(EXIT.ok);
    expect(help).toEqual(await run('drill', '--help'));
    expect(help.stdout).not.toContain('usage: context-compiler <command>');
  });

  it('refuses help for a command that does not exist', async () => {
    const help = await run('help', 'compil');
    expect(help.code).toBe(EXIT.invalid);
    expect(help.stderr).toContain('unknown command "compil"');
  });
});
