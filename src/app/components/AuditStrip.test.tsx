// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useResultStore } from '../state/result-store';
import { resetStores, sampleView } from '../test-support';
import { AuditStrip, GOVERNING_PRINCIPLE } from './AuditStrip';

describe('AuditStrip', () => {
  afterEach(cleanup);

  it('shows counts, exact budget accounting, the receipt and the principle', () => {
    resetStores(
      sampleView({
        counts: { candidates: 13, admitted: 6, selected: 4, excluded: 9, withheld: 0 },
        tokensUsed: 74,
        tokenBudget: 96,
      }),
    );
    render(<AuditStrip />);
    expect(screen.getByTestId('audit-selected')).toHaveTextContent('4');
    expect(screen.getByTestId('audit-excluded')).toHaveTextContent('9');
    expect(screen.getByTestId('audit-budget')).toHaveTextContent('74 / 96 tokens');
    expect(screen.getByTestId('audit-receipt')).toHaveTextContent('aaaaaaaaaaaa');
    expect(screen.getByTestId('audit-principle')).toHaveTextContent(GOVERNING_PRINCIPLE);
  });

  it('in the user view shows the user-view id, labelled as such, never a receipt, and counts the withheld records apart', () => {
    resetStores(
      sampleView({
        audience: 'user',
        receiptId: null,
        recordSetDigest: null,
        userViewId: 'e'.repeat(64),
        counts: { candidates: 11, admitted: 5, selected: 4, excluded: 7, withheld: 2 },
      }),
    );
    render(<AuditStrip />);
    expect(screen.queryByTestId('audit-receipt')).toBeNull();
    expect(screen.getByTestId('audit-user-view')).toHaveTextContent('eeeeeeeeeeee');
    expect(screen.getByTestId('audit-user-view')).toHaveAttribute('title', 'e'.repeat(64));
    expect(screen.getByRole('button', { name: 'User view' })).toBeInTheDocument();
    expect(screen.getByTestId('audit-excluded')).toHaveTextContent('7 + 2 withheld');
  });

  it('names the outcome in words when the compiler fails closed', () => {
    resetStores(sampleView({ status: 'fail_closed' }));
    render(<AuditStrip />);
    expect(screen.getByTestId('audit-outcome')).toHaveTextContent('Fail-closed: no packet');
  });

  it('says when the decision is reserved for a person, in the strip', () => {
    resetStores(sampleView({ decisionBlockedBy: ['waiver_valid'] }));
    render(<AuditStrip />);
    expect(screen.getByTestId('audit-decision')).toHaveTextContent(/^Reserved for a person$/);
    expect(screen.getByTestId('audit-decision')).toHaveAttribute('title', 'waiver_valid not established');
    cleanup();
    resetStores(sampleView());
    render(<AuditStrip />);
    expect(screen.getByTestId('audit-decision')).toHaveTextContent('May rest on the packet');
  });

  it('marks the facts on screen as outdated while the inputs compile again, and names no outcome', () => {
    resetStores(sampleView());
    useResultStore.setState({ compiling: true });
    render(<AuditStrip />);
    expect(screen.getByTestId('audit-outcome')).toHaveTextContent('Compiling…');
    expect(screen.getByTestId('audit-outcome').closest('dl')).toHaveAttribute('aria-busy', 'true');
  });
});
