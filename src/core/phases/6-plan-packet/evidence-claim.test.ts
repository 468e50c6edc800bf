import { describe, expect, it } from 'vitest';
import { evidenceClaimOn } from './evidence-claim';

const proposition = { id: 'P1', description: 'the claim', acceptedClasses: ['facility_record'], blocking: true };

describe('a record’s evidence claim on a required proposition', () => {
  it('is none without evidence, or when the evidence names the proposition neither way', () => {
    expect(evidenceClaimOn(proposition, null)).toBeNull();
    expect(evidenceClaimOn(proposition, { class: 'facility_record', supports: ['P2'], contradicts: [] })).toBeNull();
  });

  it('says which way it claims, and counts it only in an accepted class', () => {
    expect(evidenceClaimOn(proposition, { class: 'facility_record', supports: ['P1'], contradicts: [] })).toEqual({
      supports: true,
      contradicts: false,
      accepted: true,
    });
    expect(evidenceClaimOn(proposition, { class: 'email', supports: [], contradicts: ['P1'] })).toEqual({
      supports: false,
      contradicts: true,
      accepted: false,
    });
    expect(evidenceClaimOn(proposition, { class: 'facility_record', supports: ['P1'], contradicts: ['P1'] })).toEqual({
      supports: true,
      contradicts: true,
      accepted: true,
    });
  });
});
