import { canonicalJson, compareStrings, sortedSet } from './canonical';
import type { CanonicalBytes } from './canonical-bytes';
import { asOfInstant } from './as-of';
import type { Contract } from './format/contract';
import type { SourceRecord } from './format/record';
import { formatInstant } from './format/time';

/*
 * What the core hashes with and what it hashes: the SHA-256 each entry point hands in, a record's content hash,
 * and the fingerprints of contracts and records.
 */

/**
 * SHA-256 (FIPS 180-4) of text as UTF-8, synchronous and byte-identical wherever the core runs. The core looks up
 * no platform: every function that hashes is given the implementation, as a store is given its SQL driver, and each
 * entry point passes its platform's (Node's crypto in the CLI, tests and scripts, `src/lib/node-sha256.ts`;
 * hash-wasm in the browser's workers, `src/lib/hash-wasm.ts`). Web Crypto only offers an asynchronous digest, so a
 * worker loads the WebAssembly one when it starts and hashes nothing before. Reading a large record file hashes
 * every record's text, and a receipt hashes every trace row, hence a native digest on each platform; every
 * implementation gives the same digests (the tests hold each to @noble/hashes and the FIPS vectors).
 */
export interface Sha256 {
  /** SHA-256 of the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD), as lowercase hex. */
  hex(text: string): string;
  /** SHA-256 of these bytes, as lowercase hex (for a value written straight into bytes: `CanonicalBytes`). */
  hexOfBytes(bytes: Uint8Array): string;
  /**
   * An incremental digest for long sequences (the record-set digest, the receipt trace) without building
   * one giant string. Each update is UTF-8 encoded on its own (a lone surrogate, or half of a pair split
   * between two updates, becomes U+FFFD). It can be read once.
   */
  digest(): Digest;
}

export interface Digest {
  update(text: string): void;
  hex(): string;
}

/** A digest of its two steps that refuses to be used once read. */
export function readOnce(update: (text: string) => void, hex: () => string): Digest {
  let done = false;
  return {
    update(text) {
      if (done) throw new Error('digest already finished');
      update(text);
    },
    hex() {
      if (done) throw new Error('digest already finished');
      done = true;
      return hex();
    },
  };
}

/** The content hash a record's provenance declares for its text: `sha256:` and the hex digest. */
export function contentHashOf(sha256: Sha256, text: string): string {
  return `sha256:${sha256.hex(text)}`;
}

/**
 * The contract with every set-like list sorted and de-duplicated and the as-of instant in one spelling,
 * so that reordering a list never changes a fingerprint. The principal chain keeps its order: it is a
 * delegation sequence. This is the contract a receipt carries.
 */
export function normaliseContract(contract: Contract): Contract {
  return {
    ...contract,
    asOf: formatInstant(asOfInstant(contract)),
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

export function contractFingerprint(sha256: Sha256, contract: Contract): string {
  return sha256.hex(canonicalJson(normaliseContract(contract)));
}

/**
 * A record's fingerprint: the SHA-256 of its canonical form with set-like lists sorted and the text
 * replaced by the text's content hash (`textHash`, `sha256:<hex>`), so the text, already hashed once to
 * check provenance, is not hashed a second time. Every field is covered.
 */
export function recordFingerprint(
  sha256: Sha256,
  record: SourceRecord,
  textHash: string,
  scratch: CanonicalBytes,
): string {
  const form = fingerprintMessage(record, textHash, scratch);
  return typeof form === 'string' ? sha256.hex(form) : sha256.hexOfBytes(form);
}

/**
 * What a fingerprint hashes: the canonical form as bytes, or through the generic path when the record is not of the
 * validated shape.
 */
function fingerprintMessage(record: SourceRecord, textHash: string, scratch: CanonicalBytes): Uint8Array | string {
  return canonicalRecordBytes(record, textHash, scratch) ?? canonicalJson(fingerprintForm(record, textHash));
}

/** The record as its fingerprint sees it: the text as its content hash, every set sorted. */
export function fingerprintForm(record: SourceRecord, textHash: string): SourceRecord {
  return {
    ...record,
    text: textHash,
    supersedes: sortedSet(record.supersedes),
    access: {
      roles: sortedSet(record.access.roles),
      purposes: sortedSet(record.access.purposes),
      labels: sortedSet(record.access.labels),
    },
    evidence: record.evidence && {
      class: record.evidence.class,
      supports: sortedSet(record.evidence.supports),
      contradicts: sortedSet(record.evidence.contradicts),
    },
  };
}

const RECORD_KEYS = 20;

/** Own keys with a value: canonical JSON leaves an undefined one out, so it must not pass for a field. */
function keyCount(value: object): number {
  let count = 0;
  for (const key in value)
    if (Object.hasOwn(value, key) && (value as Record<string, unknown>)[key] !== undefined) count += 1;
  return count;
}

/**
 * Exactly the UTF-8 bytes of `canonicalJson(fingerprintForm(record, textHash))`, written in the keys' sorted
 * order instead of sorted per record, and without a string in between. Null when the record is not of the
 * validated shape (an extra key, say) or holds a lone surrogate: the generic path takes it. The bytes are a
 * view of `form`, which the next call overwrites: a reader passes one `form` for all its records.
 */
export function canonicalRecordBytes(record: SourceRecord, textHash: string, form: CanonicalBytes): Uint8Array | null {
  const { access, evidence, provenance } = record;
  if (
    keyCount(record) !== RECORD_KEYS ||
    keyCount(access) !== 3 ||
    (evidence !== null && keyCount(evidence) !== 3) ||
    (provenance !== null && keyCount(provenance) !== 2)
  )
    return null;
  if (!Number.isFinite(record.tokens) || (record.relevance !== null && !Number.isFinite(record.relevance))) return null;
  form.reset();
  form.ascii('{"access":{"labels":');
  form.sortedSet(access.labels);
  form.ascii(',"purposes":');
  form.sortedSet(access.purposes);
  form.ascii(',"roles":');
  form.sortedSet(access.roles);
  form.ascii('},"authorityClass":');
  form.string(record.authorityClass);
  form.ascii(',"evidence":');
  if (evidence === null) form.ascii('null');
  else {
    form.ascii('{"class":');
    form.string(evidence.class);
    form.ascii(',"contradicts":');
    form.sortedSet(evidence.contradicts);
    form.ascii(',"supports":');
    form.sortedSet(evidence.supports);
    form.ascii('}');
  }
  form.ascii(',"id":');
  form.string(record.id);
  form.ascii(',"knownAt":');
  form.string(record.knownAt);
  form.ascii(',"lifecycle":');
  form.string(record.lifecycle);
  form.ascii(',"project":');
  form.string(record.project);
  form.ascii(',"provenance":');
  if (provenance === null) form.ascii('null');
  else {
    form.ascii('{"contentHash":');
    form.string(provenance.contentHash);
    form.ascii(',"origin":');
    form.string(provenance.origin);
    form.ascii('}');
  }
  form.ascii(',"relevance":');
  form.numberOrNull(record.relevance);
  form.ascii(',"reviewState":');
  form.string(record.reviewState);
  form.ascii(',"scope":');
  form.string(record.scope);
  form.ascii(',"sensitivity":');
  form.string(record.sensitivity);
  form.ascii(',"sourceClass":');
  form.string(record.sourceClass);
  form.ascii(',"subject":');
  form.stringOrNull(record.subject);
  form.ascii(',"supersedes":');
  form.sortedSet(record.supersedes);
  form.ascii(',"text":');
  form.string(textHash);
  form.ascii(',"title":');
  form.string(record.title);
  form.ascii(',"tokens":');
  form.numberOrNull(record.tokens);
  form.ascii(',"validFrom":');
  form.string(record.validFrom);
  form.ascii(',"validTo":');
  form.stringOrNull(record.validTo);
  form.ascii('}');
  return form.finish();
}
