import { describe, expect, it } from 'vitest';
import { buildContract } from './test-support/builders';
import { FACTS, factContextOf, recordsNamedBy, renderFact } from './reasons';
import { renderSuggestion, SUGGESTIONS } from './suggestions';

const CONTRACT_PLACEHOLDERS = Object.keys(factContextOf(buildContract()));

describe('the fact catalogue', () => {
  it('fills every placeholder of every template from a declared argument or a contract value', () => {
    for (const [id, entry] of Object.entries(FACTS)) {
      for (const [, fromContract, name] of entry.template.matchAll(/\{(contract\.)?([A-Za-z]+)\}/g)) {
        if (fromContract) expect(CONTRACT_PLACEHOLDERS, `${id}: {contract.${name}}`).toContain(name);
        else expect(Object.keys(entry.args), `${id}: {${name}}`).toContain(name);
      }
      for (const name of Object.keys(entry.args))
        expect(entry.template, `${id} declares ${name}`).toContain(`{${name}}`);
    }
  });

  it('declares every placeholder of every counterfactual suggestion, and words one with a list', () => {
    for (const [code, entry] of Object.entries(SUGGESTIONS)) {
      const placeholders = [...entry.template.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1]);
      expect(placeholders.sort(), code).toEqual(Object.keys(entry.args).sort());
    }
    expect(renderSuggestion({ code: 'DROP_DENY_LABELS', args: { labels: ['hr', 'legal_hold'] } })).toBe(
      'stop denying the labels [hr, legal_hold]',
    );
  });

  it('words a fact from its arguments and the contract it was stated under', () => {
    const context = factContextOf(buildContract({ asOf: '2026-08-30', scopes: ['support', 'billing'] }));
    expect(renderFact({ fact: 'VALID_TO_BEFORE_AS_OF', args: { validTo: '2026-08-28' } }, context)).toBe(
      'valid_to 2026-08-28 < as_of 2026-08-30',
    );
    expect(renderFact({ fact: 'SCOPE_NOT_ALLOWED', args: { scope: 'legal' } }, context)).toBe(
      'scope legal not in allowed scopes [billing, support]',
    );
    expect(renderFact({ fact: 'LABEL_DENIED', args: { labels: ['hr', 'investigation'] } }, context)).toBe(
      'label hr, investigation is denied by the contract',
    );
  });

  it('names other records only through record arguments', () => {
    expect(recordsNamedBy({ fact: 'SUPERSEDED_BY', args: { successor: 'new', since: '2026-08-01' } })).toEqual(['new']);
    expect(recordsNamedBy({ fact: 'SCOPE_NOT_ALLOWED', args: { scope: 'new' } })).toEqual([]);
  });
});
