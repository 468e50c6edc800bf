import { canonicalJson, compareStrings, sortedSet } from './canonical';
import type { Contract } from './format/contract';
import type { SourceRecord } from './format/record';
import { formatInstant, parseInstant } from './format/time';
import { sha256Hex } from './hash';

/**
 * The contract with every set-like list sorted and de-duplicated and the as-of instant in one spelling,
 * so that reordering a list never changes a fingerprint. The principal chain keeps its order: it is a
 * delegation sequence. This is the contract a receipt carries.
 */
export function normaliseContract(contract: Contract): Contract {
  return {
    ...contract,
    asOf: formatInstant(parseInstant(contract.asOf) ?? 0),
    principals: contract.principals.map((principal) => ({ ...principal, roles: sortedSet(principal.roles) })),
    scopes: sortedSet(contract.scopes),
    identities: [...contract.identities]
      .map((identity) => ({ ...identity, aliases: sortedSet(identity.aliases) }))
      .sort((a, b) => compareStrings(a.id, b.id)),
    allowedSourceClasses: sortedSet(contract.allowedSourceClasses),
    allowedAuthorityClasses: sortedSet(contract.allowedAuthorityClasses),
    acceptedReviewStates: sortedSet(contract.acceptedReviewStates),
    forbiddenLifecycle: sortedSet(contract.forbiddenLifecycle) as Contract['forbiddenLifecycle'],
    forbiddenSensitivity: sortedSet(contract.forbiddenSensitivity),
    denyLabels: sortedSet(contract.denyLabels),
    requiredRecords: sortedSet(contract.requiredRecords),
    requiredPropositions: [...contract.requiredPropositions]
      .map((proposition) => ({ ...proposition, acceptedClasses: sortedSet(proposition.acceptedClasses) }))
      .sort((a, b) => compareStrings(a.id, b.id)),
  };
}

export function contractFingerprint(contract: Contract): string {
  return sha256Hex(canonicalJson(normaliseContract(contract)));
}

/**
 * A record's fingerprint: the SHA-256 of its canonical form with set-like lists sorted and the text
 * replaced by the text's content hash (`textHash`, `sha256:<hex>`), so the text, already hashed once to
 * check provenance, is not hashed a second time. Every field is covered.
 */
export function recordFingerprint(record: SourceRecord, textHash: string): string {
  return sha256Hex(
    canonicalJson({
      ...record,
      text: textHash,
      supersedes: sortedSet(record.supersedes),
      access: { roles: sortedSet(record.access.roles), purposes: sortedSet(record.access.purposes), labels: sortedSet(record.access.labels) },
      evidence: record.evidence && { class: record.evidence.class, supports: sortedSet(record.evidence.supports), contradicts: sortedSet(record.evidence.contradicts) },
    }),
  );
}
