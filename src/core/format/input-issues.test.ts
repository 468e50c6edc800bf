import { describe, expect, it } from 'vitest';
import { inputIssue } from '../issues';
import { compileError, issueAt, type CompileError } from '../errors';
import { parseFormattedPath, placeContractIssues } from './input-issues';

const twice = inputIssue({ file: 'contract', path: 'requiredPropositions[1].id' }, 'PROPOSITION_TWICE', {
  proposition: 'p',
});
const typeCheckError: CompileError = compileError(
  { pass: 'type-check', code: 'INVALID_INPUT', issues: [twice] },
  'ISSUE_AT',
  issueAt(twice),
);

describe('placeContractIssues', () => {
  it('reads a formatted path back into its parts', () => {
    expect(parseFormattedPath('requiredPropositions[1].id')).toEqual(['requiredPropositions', 1, 'id']);
    expect(parseFormattedPath('(root)')).toEqual([]);
  });

  it('names the contract file and the line of the field', () => {
    const text = JSON.stringify({ task: 't', requiredPropositions: [{ id: 'p' }, { id: 'p' }] }, null, 2);
    expect(placeContractIssues(typeCheckError, 'c.json', text).issues).toEqual([
      {
        file: 'c.json',
        line: 8,
        path: 'requiredPropositions[1].id',
        code: 'PROPOSITION_TWICE',
        args: { proposition: 'p' },
        message: 'proposition "p" is declared twice',
      },
    ]);
  });

  it('places the field inside a scenario under its contract, and leaves issues about other files alone', () => {
    const text = JSON.stringify({ id: 's', contract: { requiredPropositions: [{ id: 'p' }, { id: 'p' }] } }, null, 2);
    const other = inputIssue({ file: 'r.jsonl', line: 3, path: 'id' }, 'DUPLICATE_ID', { id: '"a"', first: null });
    const placed = placeContractIssues(
      { ...typeCheckError, issues: [...(typeCheckError.issues ?? []), other] },
      's.scenario.json',
      text,
      ['contract'],
    );
    expect(placed.issues).toEqual([
      {
        file: 's.scenario.json',
        line: 9,
        path: 'contract.requiredPropositions[1].id',
        code: 'PROPOSITION_TWICE',
        args: { proposition: 'p' },
        message: 'proposition "p" is declared twice',
      },
      other,
    ]);
  });
});
