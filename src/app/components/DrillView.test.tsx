// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useDrillStore } from '../state/drill-store';
import { installFakeApi, resetStores } from '../test-support';
import type { VerdictView } from '../../worker/protocol';
import { AuditStrip } from './AuditStrip';
import { DrillView } from './DrillView';

const onScreen = 'a'.repeat(64);
const withLateChange = 'e'.repeat(64);
const stale: VerdictView = {
  action: 'recompile_required',
  code: 'STALE_CONTRACT_FINGERPRINT',
  message: 'The contract changed since the receipt.',
  priorReceiptId: onScreen,
  currentReceiptId: withLateChange,
  reperformed: true,
  diff: null,
};

describe('DrillView: a late change declared and not yet compiled', () => {
  beforeEach(() => {
    resetStores();
    installFakeApi();
    useDrillStore.setState({
      frozenReceiptId: onScreen,
      declared: ['promote-run-0880'],
      verdict: stale,
      verdictRevision: 0,
      busy: false,
    });
  });
  afterEach(cleanup);

  it('says one verdict: the strip above does not let the decision rest on the packet the drill found stale', () => {
    render(
      <>
        <AuditStrip />
        <DrillView />
      </>,
    );
    expect(screen.getByTestId('drill-headline')).toHaveTextContent('STALE — RECOMPILE REQUIRED');
    expect(screen.getByTestId('audit-decision')).toHaveTextContent('Stale: recompile first');
    expect(screen.getByTestId('audit-decision')).not.toHaveTextContent('May rest on the packet');
  });

  it('names the receipt it judged, and says in words what is compiled now and what is only declared', () => {
    render(<DrillView />);
    expect(screen.getByTestId('drill-judged')).toHaveTextContent(
      `Receipt judged: ${onScreen.slice(0, 12)}, the one on screen.`,
    );
    expect(screen.getByTestId('drill-judged')).toHaveTextContent(
      `With the late change the inputs compile to ${withLateChange.slice(0, 12)}: press Recompile current context to put it on screen.`,
    );
    expect(screen.getByTestId('drill-declared')).toHaveTextContent(
      'Declared since the receipt: Late correction: RUN-0880 is required',
    );
    const now = screen.getByTestId('drill-current-changes');
    expect(now).toHaveTextContent(
      'Late changes applied: none. Declared in the drill, not yet compiled: Late correction: RUN-0880 is required. Controls on: none.',
    );
    expect(screen.getByTestId('drill-current')).not.toHaveTextContent('promote-run-0880');
  });
});
