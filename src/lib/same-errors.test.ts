import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import type { CompileError, Result } from '../core/errors';
import { compile, diff, drill, runSuite } from './node';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/retry-policy/${name}`, import.meta.url), 'utf8');
const scenarioText = fixture('scenario.json');
const recordsText = fixture('records.jsonl');
const contract = (JSON.parse(scenarioText) as { contract: Record<string, unknown> }).contract;
const contractText = (changes: Record<string, unknown>) => `${JSON.stringify({ ...contract, ...changes }, null, 2)}\n`;

/** Runs the CLI with `--json` in `cwd`, and reads the error or answer it prints. */
async function cli(cwd: string, ...args: string[]): Promise<unknown> {
  let stdout = '';
  await main([...args, '--json'], { stdout: (text) => (stdout += text), stderr: () => undefined, cwd });
  return JSON.parse(stdout) as unknown;
}

/** What the two must agree on: the pass, the code, and each issue's file, line, field and code. */
function refusal(error: CompileError) {
  return {
    pass: error.pass,
    code: error.code,
    issues: (error.issues ?? []).map(({ file, line, path, code }) => ({ file, line, path, code })),
  };
}

const cliRefusal = (printed: unknown) => refusal((printed as { error: CompileError }).error);

function libraryRefusal<T>(answer: Result<T, CompileError>) {
  if (answer.ok) throw new Error('expected the library to refuse the inputs');
  return refusal(answer.error);
}

describe('the library refuses what the CLI refuses, with the same code, file, line and field', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'cc-same-errors-'));
  const write = (name: string, text: string) => writeFileSync(join(cwd, name), text);
  write('records.jsonl', recordsText);
  const own = (contractFile: string) => ({
    contract: readFileSync(join(cwd, contractFile), 'utf8'),
    contractFile,
    records: recordsText,
    recordsFile: 'records.jsonl',
  });

  it.each([
    ['a field of the wrong type', 'mistyped.json', contractText({ tokenBudget: 'many' })],
    ['text that is not JSON', 'broken.json', '{"task": "retry",\n  "query": }\n'],
    [
      'typed evidence and no proposition (found by type-checking, placed in the contract file)',
      'untyped.json',
      contractText({ typedEvidenceOnly: true, requiredPropositions: [] }),
    ],
  ])('a contract with %s', async (_title, file, text) => {
    write(file, text);
    const fromCli = cliRefusal(await cli(cwd, 'compile', '--records', 'records.jsonl', '--contract', file));
    expect(fromCli.issues.length).toBeGreaterThan(0);
    expect(fromCli.issues.every((issue) => issue.file === file && issue.line !== undefined)).toBe(true);
    expect(libraryRefusal(await compile(own(file)))).toEqual(fromCli);
  });

  it('a scenario switched with a control it does not declare', async () => {
    write('scenario.json', scenarioText);
    const fromCli = cliRefusal(
      await cli(cwd, 'compile', '--scenario', 'scenario.json', '--control', 'no-such-control'),
    );
    const fromLibrary = libraryRefusal(
      await compile({
        scenario: scenarioText,
        scenarioFile: 'scenario.json',
        files: { 'records.jsonl': recordsText },
        controls: ['no-such-control'],
      }),
    );
    expect(fromLibrary).toEqual(fromCli);
  });

  it('a receipt edited after its id was computed: refused by diff, judged by drill', async () => {
    const compiled = await compile({ contract, records: recordsText });
    if (!compiled.ok || compiled.value.receiptText === null) throw new Error('expected a receipt');
    const edited = compiled.value.receiptText.replace('"tokenBudget":96', '"tokenBudget":97');
    write('receipt.json', compiled.value.receiptText);
    write('edited.json', edited);
    write('contract.json', contractText({}));
    expect(libraryRefusal(await diff(compiled.value.receiptText, edited, ['receipt.json', 'edited.json']))).toEqual(
      cliRefusal(await cli(cwd, 'diff', 'receipt.json', 'edited.json')),
    );

    const fromCli = (await cli(
      cwd,
      'drill',
      '--receipt',
      'edited.json',
      '--records',
      'records.jsonl',
      '--contract',
      'contract.json',
    )) as { action: string; code: string };
    const fromLibrary = await drill({ ...own('contract.json'), receipt: edited, receiptFile: 'edited.json' });
    expect(fromLibrary.ok && { action: fromLibrary.value.action, code: fromLibrary.value.code }).toEqual({
      action: fromCli.action,
      code: fromCli.code,
    });
  });

  it('a suite naming a control its scenario does not declare', async () => {
    const suite = fixture('poison-controls.expect.json').replace('"future-reveal"', '"no-such-control"');
    write('scenario.json', scenarioText);
    write('poison.expect.json', suite.replace(/"inputs": \{[^}]*\}/, '"inputs": { "scenarioFile": "scenario.json" }'));
    const printed = (await cli(cwd, 'test', 'poison.expect.json')) as { suites: { error?: CompileError }[] };
    const fromCli = printed.suites[0]?.error;
    if (fromCli === undefined) throw new Error('expected the CLI to refuse the suite');
    const fromLibrary = await runSuite({
      scenario: scenarioText,
      scenarioFile: 'scenario.json',
      files: { 'records.jsonl': recordsText },
      suite,
      suiteFile: 'poison.expect.json',
    });
    expect(libraryRefusal(fromLibrary)).toEqual(refusal(fromCli));
  });
});
