import { describe, expect, it } from 'vitest';
import { viewsOf } from './gate-views';

/** A row as the driver hands one over: bigint columns as strings of digits, lists as arrays. */
const row = {
  id: 'rec-1',
  fingerprint: 'sha256:ab',
  project: 'atlas',
  scope: 'credit',
  subject: null,
  known_at: '1788091200000',
  valid_from: '1788091200000',
  valid_to: null,
  lifecycle: 'active',
  source_class: 'crm',
  authority_class: 'policy',
  review_state: 'approved',
  provenance_ok: true,
  sensitivity: 'internal',
  evidence_class: null,
  roles: ['analyst'],
  purposes: ['credit_decision'],
  labels: [],
  claims: [],
  supersedes: [],
  tokens: '120',
  relevance: 0.5,
};

describe('the gate view of a row', () => {
  it('is made of the columns, with the bigint columns as numbers and the instants as the record states them', () => {
    const views = viewsOf([row, { ...row, id: 'rec-2', valid_to: '1788091300000', subject: 'acme' }]);
    if (!views.ok) throw new Error(views.error.message);
    const [first, second] = views.value;
    expect(first?.knownAt).toBe(1788091200000);
    expect(first?.record.knownAt).toBe('2026-08-30T12:00:00.000Z');
    expect(first?.record.tokens).toBe(120);
    expect(first?.validTo).toBeNull();
    expect(second?.validTo).toBe(1788091300000);
    expect(second?.record.subject).toBe('acme');
    // Its lists are copies the length of what they hold: the driver's arrays keep room for more (DECISIONS.md).
    expect(first?.record.access.roles).toEqual(row.roles);
    expect(first?.record.access.roles).not.toBe(row.roles);
    expect(first?.record.supersedes).not.toBe(row.supersedes);
  });

  it.each([
    ['lifecycle', { lifecycle: 'archived' }],
    ['review_state', { review_state: null }],
    ['known_at', { known_at: '17e11' }],
    ['valid_to', { valid_to: 'never' }],
    ['tokens', { tokens: '12.5' }],
    ['roles', { roles: 'analyst' }],
    ['labels', { labels: [null] }],
    ['scope', { scope: null }],
    ['subject', { subject: 7 }],
    ['provenance_ok', { provenance_ok: 't' }],
    ['relevance', { relevance: '0.5' }],
  ])('refuses a row whose %s is not what the layout holds: ADAPTER_MISMATCH, naming the column', (column, change) => {
    const views = viewsOf([row, { ...row, ...change }]);
    expect(views.ok).toBe(false);
    if (views.ok) return;
    expect(views.error.code).toBe('ADAPTER_MISMATCH');
    expect(views.error.message).toContain(`its ${column} is not`);
  });
});
