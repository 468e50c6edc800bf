import type { FactArgs, FactEntry } from './reasons';

/*
 * The catalogue's wording of what is not a reason (reasons.ts holds reasons and facts): suggestions that
 * would flip a record's admission, and why a baseline column is empty.
 */

/** What `counterfactual.ts` offers: one change to the contract or a record that flips a record's admission. */
export const SUGGESTIONS = {
  ADD_ROLE: { template: 'give principal {principal} the role {role}', args: { principal: 'name', role: 'name' } },
  SET_AS_OF_BEFORE: { template: 'set the as-of to {asOf} or earlier', args: { asOf: 'instant' } },
  SET_AS_OF_AFTER: { template: 'set the as-of to {asOf} or later', args: { asOf: 'instant' } },
  DROP_DENY_LABELS: { template: 'stop denying the labels [{labels}]', args: { labels: 'names' } },
  DENY_LABEL: { template: 'deny the label {label}', args: { label: 'name' } },
  ALLOW_SOURCE_CLASS: { template: 'allow the source class {sourceClass}', args: { sourceClass: 'name' } },
  DISALLOW_SOURCE_CLASS: { template: 'stop allowing the source class {sourceClass}', args: { sourceClass: 'name' } },
  ALLOW_AUTHORITY_CLASS: { template: 'allow the authority class {authorityClass}', args: { authorityClass: 'name' } },
  SUPPLY_PROVENANCE: {
    template: 'supply provenance whose content hash matches the text ({contentHash}…)',
    args: { contentHash: 'name' },
  },
} as const satisfies Readonly<Record<string, FactEntry>>;

export type SuggestionCode = keyof typeof SUGGESTIONS;

/** A suggestion in words: the same placeholders as a fact, with no contract context. */
export function renderSuggestion(suggestion: { readonly code: SuggestionCode; readonly args: FactArgs }): string {
  return SUGGESTIONS[suggestion.code].template.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => {
    const value = suggestion.args[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? value.join(', ') : String(value);
  });
}

/** The counts a baseline column's emptiness is explained by: k, and how many records the column could choose from. */
export interface EmptyBaselineArgs {
  readonly k: number;
  readonly ranked: number;
}

/** Why a baseline packet holds nothing, said in its column so an empty column does not look like a broken one. */
export const EMPTY_BASELINE_NOTES = {
  NOTHING_RANKED: () => 'Empty: no record matches the query, so relevance ranks nothing to choose from.',
  EVERY_TOP_K_ILLEGAL: ({ k, ranked }: EmptyBaselineArgs) =>
    `Empty: ${ranked === 1 ? 'the one record' : `all ${ranked} records`} in relevance's top ${k} ${ranked === 1 ? 'is' : 'are'} illegal, and post-filtering drops them without looking further down the ranking.`,
  NONE_FITS_BUDGET: ({ ranked }: EmptyBaselineArgs) =>
    `Empty: ${ranked === 1 ? 'the one record' : `each of the ${ranked} records`} it could choose from is larger than the whole token budget.`,
} as const satisfies Readonly<Record<string, (args: EmptyBaselineArgs) => string>>;

export type EmptyBaselineCode = keyof typeof EMPTY_BASELINE_NOTES;
