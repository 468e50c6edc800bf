import { compileError, err, ok, type CompileError, type Result } from '../../errors';
import { inputIssue } from '../../issues';
import type { Resolution } from '../2-resolve/resolve';

/** Pass 3: the contract must make sense against these records before anything is admitted. */
export function typeCheck(resolution: Resolution): Result<Resolution, CompileError> {
  const { contract } = resolution.contract;
  // Sorted, so the absent record named in the receipt does not depend on the order the contract lists them.
  for (const id of [...contract.requiredRecords].sort()) {
    if (!resolution.indexOf.has(id)) {
      return err(
        compileError(
          {
            pass: 'type-check',
            code: 'REQUIRED_NOT_FOUND',
            recordId: id,
            // Not how many records were supplied: that count includes records the caller may not see.
            fact: { fact: 'REQUIRED_ABSENT', args: { record: id } },
          },
          'REQUIRED_ABSENT_STOP',
          { record: id },
        ),
      );
    }
  }
  const seen = new Set<string>();
  for (const [index, proposition] of contract.requiredPropositions.entries()) {
    if (seen.has(proposition.id)) {
      return err(
        compileError(
          {
            pass: 'type-check',
            code: 'INVALID_INPUT',
            issues: [
              inputIssue({ file: 'contract', path: `requiredPropositions[${index}].id` }, 'PROPOSITION_TWICE', {
                proposition: proposition.id,
              }),
            ],
          },
          'PROPOSITION_TWICE_STOP',
          { index, proposition: proposition.id },
        ),
      );
    }
    seen.add(proposition.id);
  }
  if (contract.typedEvidenceOnly && contract.requiredPropositions.length === 0) {
    return err(
      compileError(
        {
          pass: 'type-check',
          code: 'INVALID_INPUT',
          issues: [inputIssue({ file: 'contract', path: 'typedEvidenceOnly' }, 'TYPED_EVIDENCE_WITHOUT_PROPOSITIONS')],
        },
        'TYPED_EVIDENCE_STOP',
      ),
    );
  }
  return ok(resolution);
}
