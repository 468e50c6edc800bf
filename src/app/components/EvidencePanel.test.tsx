// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EvidenceSlot } from '../../core/result';
import { compileNow, setAudience } from '../state/actions';
import { useResultStore } from '../state/result-store';
import { installFakeApi, resetStores, sampleView } from '../test-support';
import { ATTEMPTS_PAGE, type EvidenceAttempt } from '../../worker/protocol';
import { EvidencePanel, evidenceSentence } from './EvidencePanel';

const slot = (change: Partial<EvidenceSlot>): EvidenceSlot => ({
  proposition: 'waiver_valid',
  description: 'A valid waiver exists.',
  acceptedClasses: ['approved_waiver'],
  blocking: true,
  state: 'unknown',
  supporting: [],
  contradicting: [],
  notAccepted: [],
  displaced: [],
  ...change,
});

describe('EvidencePanel', () => {
  afterEach(cleanup);

  it('words an unknown proposition as a reviewer would, never as absence of evidence', () => {
    const sentence = evidenceSentence(slot({}));
    expect(sentence).toBe(
      'No admissible evidence was found in the admitted records of an accepted class (approved_waiver).',
    );
    expect(sentence).not.toMatch(/no evidence exists/i);
  });

  it('lists each proposition with its state, not by colour alone, and the records behind it', () => {
    resetStores(
      sampleView({
        evidence: [
          slot({ proposition: 'facility_active', state: 'supported', supporting: ['FAC-1'] }),
          slot({ notAccepted: ['NOTE-7'] }),
        ],
        decisionBlockedBy: ['waiver_valid'],
      }),
    );
    render(<EvidencePanel />);
    expect(screen.getByTestId('evidence-state-facility_active')).toHaveTextContent('✓ Supported');
    expect(screen.getByTestId('evidence-facility_active')).toHaveTextContent('FAC-1');
    expect(screen.getByTestId('evidence-state-waiver_valid')).toHaveTextContent('? Unknown');
    expect(screen.getByTestId('evidence-waiver_valid')).toHaveTextContent('not an accepted class for it: NOTE-7');
  });

  it('says nothing is established when no packet was emitted', () => {
    resetStores(sampleView({ status: 'fail_closed', packetText: null }));
    render(<EvidencePanel />);
    expect(screen.getByText(/No packet was emitted/)).toBeInTheDocument();
  });

  it('names every record that tried a proposition and why each was refused or used', () => {
    resetStores(
      sampleView({
        evidence: [slot({})],
        evidenceAttempts: [
          {
            proposition: 'waiver_valid',
            acceptedClasses: ['approved_waiver'],
            total: 2,
            offset: 0,
            attempts: [
              {
                id: 'N7',
                claim: 'supports',
                evidenceClass: 'case_note',
                outcome: 'refused',
                code: 'EXCLUDE_EVIDENCE_CLASS',
                fact: 'class case_note is not accepted for waiver_valid',
              },
              {
                id: 'W-55',
                claim: 'supports',
                evidenceClass: 'approved_waiver',
                outcome: 'refused',
                code: 'EXCLUDE_EXPIRED',
                fact: 'valid_to 2026-08-28 < as_of 2026-08-30',
              },
            ],
          },
        ],
      }),
    );
    render(<EvidencePanel />);
    expect(screen.getByTestId('attempt-waiver_valid-W-55')).toHaveTextContent(
      'W-55 (approved_waiver, supports): refused by a gate · EXCLUDE_EXPIRED valid_to 2026-08-28 < as_of 2026-08-30',
    );
    expect(screen.getByTestId('attempt-waiver_valid-N7')).toHaveTextContent('EXCLUDE_EVIDENCE_CLASS');
    expect(screen.getByRole('button', { name: 'Inspect W-55' })).toBeInTheDocument();
  });

  it('lists the first page of a long list and fetches the next pages on request, so thousands of claimants neither cross to the page nor render at once', async () => {
    const total = ATTEMPTS_PAGE * 2 + 7;
    const all: EvidenceAttempt[] = Array.from({ length: total }, (_, index) => ({
      id: `R-${String(index).padStart(4, '0')}`,
      claim: 'supports',
      evidenceClass: 'case_note',
      outcome: 'refused',
      code: 'EXCLUDE_EVIDENCE_CLASS',
      fact: 'class case_note is not accepted for waiver_valid',
    }));
    const page = (offset: number) => ({
      proposition: 'waiver_valid',
      acceptedClasses: ['approved_waiver'],
      total,
      offset,
      attempts: all.slice(offset, offset + ATTEMPTS_PAGE),
    });
    const evidenceAttempts = vi.fn(
      async (_compilation: number, _proposition: string, _audience: string, offset: number) => page(offset),
    );
    installFakeApi({ evidenceAttempts });
    const view = sampleView({ evidence: [slot({})], evidenceAttempts: [page(0)] });
    resetStores(view);
    render(<EvidencePanel />);
    const listed = () => screen.getAllByTestId(/^attempt-waiver_valid-/).length;
    expect(screen.getByTestId('attempts-waiver_valid')).toHaveTextContent(`Records that tried (${total})`);
    expect(listed()).toBe(ATTEMPTS_PAGE);
    expect(screen.getByTestId('attempts-waiver_valid')).toHaveTextContent(`Showing ${ATTEMPTS_PAGE} of ${total}.`);
    fireEvent.click(screen.getByRole('button', { name: `Show ${ATTEMPTS_PAGE} more` }));
    await waitFor(() => expect(listed()).toBe(ATTEMPTS_PAGE * 2));
    expect(evidenceAttempts).toHaveBeenLastCalledWith(view.compilation, 'waiver_valid', view.audience, ATTEMPTS_PAGE);
    fireEvent.click(screen.getByRole('button', { name: 'Show 7 more' }));
    await waitFor(() => expect(listed()).toBe(total));
    expect(evidenceAttempts).toHaveBeenLastCalledWith(
      view.compilation,
      'waiver_valid',
      view.audience,
      ATTEMPTS_PAGE * 2,
    );
    expect(screen.getByTestId(`attempt-waiver_valid-R-${String(total - 1).padStart(4, '0')}`)).toBeInTheDocument();
    expect(screen.queryByTestId('attempts-more-waiver_valid')).toBeNull();

    // The same compilation again (its baselines filled in) keeps the pages; another compilation starts from its first
    // page.
    act(() => useResultStore.setState({ response: { ok: true, view: { ...view, evidenceAttempts: [page(0)] } } }));
    expect(listed()).toBe(total);
    act(() =>
      useResultStore.setState({
        response: { ok: true, view: { ...view, compilation: view.compilation + 1, evidenceAttempts: [page(0)] } },
      }),
    );
    expect(listed()).toBe(ATTEMPTS_PAGE);
  });

  it('shows a large result at once and its attempts when the worker sends them, never with another view', async () => {
    const attemptsOf = (id: string) => [
      {
        proposition: 'waiver_valid',
        acceptedClasses: ['approved_waiver'],
        total: 1,
        offset: 0,
        attempts: [
          {
            id,
            claim: 'supports' as const,
            evidenceClass: 'case_note',
            outcome: 'refused' as const,
            code: 'EXCLUDE_EVIDENCE_CLASS' as const,
            fact: 'f',
          },
        ],
      },
    ];
    const answered = sampleView({ compilation: 7, evidence: [slot({})], evidenceAttempts: null });
    const sends: ((value: ReturnType<typeof attemptsOf>) => void)[] = [];
    const firstEvidenceAttempts = vi.fn(
      () => new Promise<ReturnType<typeof attemptsOf>>((resolve) => sends.push(resolve)),
    );
    installFakeApi({
      compile: vi.fn(async () => ({ ok: true as const, view: answered })),
      disclose: vi.fn(async () => ({ ok: true as const, view: { ...answered, audience: 'user' as const } })),
      firstEvidenceAttempts,
    });
    resetStores();
    render(<EvidencePanel />);

    const compiling = compileNow();
    await waitFor(() =>
      expect(screen.getByTestId('attempts-pending')).toHaveTextContent('Finding the records that tried…'),
    );
    expect(firstEvidenceAttempts).toHaveBeenLastCalledWith(7, 'diagnostic');
    await act(async () => sends[0]?.(attemptsOf('R-1')));
    await compiling;
    expect(screen.queryByTestId('attempts-pending')).toBeNull();
    expect(screen.getByTestId('attempt-waiver_valid-R-1')).toBeInTheDocument();

    // The diagnostic view's attempts, late, are not shown with the user view that replaced it; the user view's are.
    const compilingAgain = compileNow();
    await waitFor(() => expect(firstEvidenceAttempts).toHaveBeenCalledTimes(2));
    const disclosing = setAudience('user');
    await waitFor(() => expect(firstEvidenceAttempts).toHaveBeenCalledTimes(3));
    await act(async () => sends[1]?.(attemptsOf('R-diagnostic')));
    expect(screen.getByTestId('attempts-pending')).toBeInTheDocument();
    await act(async () => sends[2]?.(attemptsOf('R-user')));
    await Promise.all([compilingAgain, disclosing]);
    expect(screen.getByTestId('attempt-waiver_valid-R-user')).toBeInTheDocument();
    expect(screen.queryByTestId('attempt-waiver_valid-R-diagnostic')).toBeNull();
  });

  it('a page the worker no longer has (a later compilation replaced it) adds nothing, and the button works again', async () => {
    const all: EvidenceAttempt[] = Array.from({ length: ATTEMPTS_PAGE + 1 }, (_, index) => ({
      id: `R-${index}`,
      claim: 'supports',
      evidenceClass: 'case_note',
      outcome: 'refused',
      code: 'EXCLUDE_EVIDENCE_CLASS',
      fact: 'f',
    }));
    let answer: (value: null) => void = () => undefined;
    installFakeApi({ evidenceAttempts: vi.fn(() => new Promise<null>((resolve) => (answer = resolve))) });
    resetStores(
      sampleView({
        evidence: [slot({})],
        evidenceAttempts: [
          {
            proposition: 'waiver_valid',
            acceptedClasses: ['approved_waiver'],
            total: all.length,
            offset: 0,
            attempts: all.slice(0, ATTEMPTS_PAGE),
          },
        ],
      }),
    );
    render(<EvidencePanel />);
    fireEvent.click(screen.getByRole('button', { name: 'Show 1 more' }));
    expect(screen.getByRole('button', { name: 'Show 1 more' })).toBeDisabled();
    await act(async () => answer(null));
    expect(screen.getAllByTestId(/^attempt-waiver_valid-/)).toHaveLength(ATTEMPTS_PAGE);
    expect(screen.getByRole('button', { name: 'Show 1 more' })).toBeEnabled();
  });
});
