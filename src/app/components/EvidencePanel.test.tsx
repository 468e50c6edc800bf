// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvidenceSlot } from '../../core/result';
import { resetStores, sampleView } from '../test-support';
import { ATTEMPTS_SHOWN, EvidencePanel, evidenceSentence } from './EvidencePanel';

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
    expect(sentence).toBe('No admissible evidence was found in the admitted records of an accepted class (approved_waiver).');
    expect(sentence).not.toMatch(/no evidence exists/i);
  });

  it('lists each proposition with its state, not by colour alone, and the records behind it', () => {
    resetStores(
      sampleView({
        evidence: [slot({ proposition: 'facility_active', state: 'supported', supporting: ['FAC-1'] }), slot({ notAccepted: ['NOTE-7'] })],
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
            attempts: [
              { id: 'N7', claim: 'supports', evidenceClass: 'case_note', outcome: 'refused', code: 'EXCLUDE_EVIDENCE_CLASS', fact: 'class case_note is not accepted for waiver_valid' },
              { id: 'W-55', claim: 'supports', evidenceClass: 'approved_waiver', outcome: 'refused', code: 'EXCLUDE_EXPIRED', fact: 'valid_to 2026-08-28 < as_of 2026-08-30' },
            ],
          },
        ],
      }),
    );
    render(<EvidencePanel />);
    expect(screen.getByTestId('attempt-waiver_valid-W-55')).toHaveTextContent('W-55 (approved_waiver, supports): refused by a gate · EXCLUDE_EXPIRED valid_to 2026-08-28 < as_of 2026-08-30');
    expect(screen.getByTestId('attempt-waiver_valid-N7')).toHaveTextContent('EXCLUDE_EVIDENCE_CLASS');
    expect(screen.getByRole('button', { name: 'Inspect W-55' })).toBeInTheDocument();
  });

  it('lists the first attempts of a long list and the rest on request, so thousands of claimants do not block the page', () => {
    const total = ATTEMPTS_SHOWN * 2 + 7;
    const attempts = Array.from({ length: total }, (_, index) => ({ id: `R-${String(index).padStart(4, '0')}`, claim: 'supports' as const, evidenceClass: 'case_note', outcome: 'refused' as const, code: 'EXCLUDE_EVIDENCE_CLASS' as const, fact: 'class case_note is not accepted for waiver_valid' }));
    resetStores(sampleView({ evidence: [slot({})], evidenceAttempts: [{ proposition: 'waiver_valid', acceptedClasses: ['approved_waiver'], attempts }] }));
    render(<EvidencePanel />);
    const listed = () => screen.getAllByTestId(/^attempt-waiver_valid-/).length;
    expect(screen.getByTestId('attempts-waiver_valid')).toHaveTextContent(`Records that tried (${total})`);
    expect(listed()).toBe(ATTEMPTS_SHOWN);
    expect(screen.getByTestId('attempt-waiver_valid-R-0000')).toBeInTheDocument();
    expect(screen.queryByTestId(`attempt-waiver_valid-R-${String(ATTEMPTS_SHOWN).padStart(4, '0')}`)).toBeNull();
    expect(screen.getByTestId('attempts-waiver_valid')).toHaveTextContent(`Showing ${ATTEMPTS_SHOWN} of ${total}.`);
    fireEvent.click(screen.getByRole('button', { name: `Show ${ATTEMPTS_SHOWN} more` }));
    expect(listed()).toBe(ATTEMPTS_SHOWN * 2);
    fireEvent.click(screen.getByRole('button', { name: 'Show 7 more' }));
    expect(listed()).toBe(total);
    expect(screen.queryByTestId('attempts-more-waiver_valid')).toBeNull();
  });
});
