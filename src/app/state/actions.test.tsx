// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CompilerFailure } from '../components/CompilerFailure';
import { resetStores } from '../test-support';
import { failClosed } from './actions';
import { useResultStore } from './result-store';

describe('failClosed', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('keeps what was being done and why as catalogue words, and shows their wording without the stack', () => {
    const overflow = Object.assign(new RangeError('Maximum call stack size exceeded'), {
      stack: 'RangeError: Maximum call stack size exceeded\n    at lowerAdmission (lower-admission.ts:28:12)',
    });
    failClosed('LOADING_FILES', overflow);
    expect(useResultStore.getState().failure).toEqual({
      headline: { code: 'COMPILER_FAILED_WHILE', args: { during: 'LOADING_FILES' } },
      reason: { code: 'RAN_OUT_OF_STACK', args: { reason: 'Maximum call stack size exceeded' } },
    });
    expect(useResultStore.getState().response).toBeNull();
    render(<CompilerFailure />);
    expect(screen.getByRole('alert')).toHaveTextContent('NOT COMPILED — the compiler failed while loading files');
    expect(screen.getByTestId('compiler-failure-reason')).toHaveTextContent(
      'It ran out of stack space (Maximum call stack size exceeded), which usually means an input list is longer than it can handle.',
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent('lower-admission.ts');
  });
});
