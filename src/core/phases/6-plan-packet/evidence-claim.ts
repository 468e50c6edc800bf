import type { Contract } from '../../format/contract';
import type { SourceRecord } from '../../format/record';

type Proposition = Contract['requiredPropositions'][number];

/** What a record's evidence says of one required proposition, and whether its class counts for it. */
export interface EvidenceClaim {
  readonly supports: boolean;
  readonly contradicts: boolean;
  /**
   * Whether the proposition accepts the record's evidence class: a claim of another class is attempted, not counted.
   */
  readonly accepted: boolean;
}

/**
 * The record's claim on `proposition`, or null when its evidence names it neither way: the one rule the packet's
 * evidence slots and the views of evidence attempts both read.
 */
export function evidenceClaimOn(proposition: Proposition, evidence: SourceRecord['evidence']): EvidenceClaim | null {
  if (evidence === null) return null;
  const supports = evidence.supports.includes(proposition.id);
  const contradicts = evidence.contradicts.includes(proposition.id);
  if (!supports && !contradicts) return null;
  return { supports, contradicts, accepted: proposition.acceptedClasses.includes(evidence.class) };
}
