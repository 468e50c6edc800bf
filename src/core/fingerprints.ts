import { canonicalJson, compareStrings, sortedSet, sortedSetJson } from './canonical';
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
  return sha256Hex(canonicalRecordForm(record, textHash) ?? canonicalJson(fingerprintForm(record, textHash)));
}

function fingerprintForm(record: SourceRecord, textHash: string): SourceRecord {
  return {
    ...record,
    text: textHash,
    supersedes: sortedSet(record.supersedes),
    access: { roles: sortedSet(record.access.roles), purposes: sortedSet(record.access.purposes), labels: sortedSet(record.access.labels) },
    evidence: record.evidence && { class: record.evidence.class, supports: sortedSet(record.evidence.supports), contradicts: sortedSet(record.evidence.contradicts) },
  };
}

const RECORD_KEYS = 20;

/** Own keys with a value: canonical JSON leaves an undefined one out, so it must not pass for a field. */
function keyCount(value: object): number {
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key) && (value as Record<string, unknown>)[key] !== undefined) count += 1;
  return count;
}

const text = (value: string) => JSON.stringify(value);

/**
 * Exactly the bytes `canonicalJson(fingerprintForm(record, textHash))` writes, with the keys written in
 * their sorted order instead of sorted per record: reading a 100,000-record file fingerprints every one.
 * Null when the record is not of the validated shape (an extra key, say), which takes the generic path.
 */
export function canonicalRecordForm(record: SourceRecord, textHash: string): string | null {
  const { access, evidence, provenance } = record;
  if (keyCount(record) !== RECORD_KEYS || keyCount(access) !== 3 || (evidence !== null && keyCount(evidence) !== 3) || (provenance !== null && keyCount(provenance) !== 2)) return null;
  if (!Number.isFinite(record.tokens) || (record.relevance !== null && !Number.isFinite(record.relevance))) return null;
  const written =
    `{"access":{"labels":${sortedSetJson(access.labels)},"purposes":${sortedSetJson(access.purposes)},"roles":${sortedSetJson(access.roles)}},` +
    `"authorityClass":${text(record.authorityClass)},` +
    `"evidence":${evidence === null ? 'null' : `{"class":${text(evidence.class)},"contradicts":${sortedSetJson(evidence.contradicts)},"supports":${sortedSetJson(evidence.supports)}}`},` +
    `"id":${text(record.id)},"knownAt":${text(record.knownAt)},"lifecycle":${text(record.lifecycle)},"project":${text(record.project)},` +
    `"provenance":${provenance === null ? 'null' : `{"contentHash":${text(provenance.contentHash)},"origin":${text(provenance.origin)}}`},` +
    `"relevance":${JSON.stringify(record.relevance)},"reviewState":${text(record.reviewState)},"scope":${text(record.scope)},` +
    `"sensitivity":${text(record.sensitivity)},"sourceClass":${text(record.sourceClass)},"subject":${JSON.stringify(record.subject)},` +
    `"supersedes":${sortedSetJson(record.supersedes)},"text":${text(textHash)},"title":${text(record.title)},"tokens":${JSON.stringify(record.tokens)},` +
    `"validFrom":${text(record.validFrom)},"validTo":${JSON.stringify(record.validTo)}}`;
  // A lone surrogate is refused by canonicalJson; JSON.stringify would escape it, so let the generic path decide.
  return written.includes('\\ud') ? null : written;
}
