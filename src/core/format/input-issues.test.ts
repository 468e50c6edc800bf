import { describe, expect, it } from 'vitest';
import type { CompileError } from '../errors';
import { parseFormattedPath, placeContractIssues } from './input-issues';

const typeCheckError: CompileError = {
  pass: 'type-check',
  code: 'INVALID_INPUT',
  message: 'contract.requiredPropositions[1].id: proposition "p" is declared twice',
  issues: [{ file: 'contract', path: 'requiredPropositions[1].id', message: 'proposition "p" is declared twice' }],
};

describe('placeContractIssues', () => {
  it('reads a formatted path back into its parts', () => {
    expect(parseFormattedPath('requiredPropositions[1].id')).toEqual(['requiredPropositions', 1, 'id']);
    expect(parseFormattedPath('(root)')).toEqual([]);
  });

  it('names the contract file and the line of the field', () => {
    const text = JSON.stringify({ task: 't', requiredPropositions: [{ id: 'p' }, { id: 'p' }] }, null, 2);
    expect(placeContractIssues(typeCheckError, 'c.json', text).issues).toEqual([{ file: 'c.json', line: 8, path: 'requiredPropositions[1].id', message: 'proposition "p" is declared twice' }]);
  });

  it('places the field inside a scenario under its contract, and leaves issues about other files alone', () => {
    const text = JSON.stringify({ id: 's', contract: { requiredPropositions: [{ id: 'p' }, { id: 'p' }] } }, null, 2);
    const other = { file: 'r.jsonl', line: 3, path: 'id', message: 'duplicate id' };
    const placed = placeContractIssues({ ...typeCheckError, issues: [...(typeCheckError.issues ?? []), other] }, 's.scenario.json', text, ['contract']);
    expect(placed.issues).toEqual([{ file: 's.scenario.json', line: 9, path: 'contract.requiredPropositions[1].id', message: 'proposition "p" is declared twice' }, other]);
  });
});
