import { canonicalJson } from './canonical';
import type { Sha256 } from './fingerprints';
import { SCHEMA_VERSION } from './version';
import type { Receipt } from './result';

/**
 * A receipt in a standard envelope: an in-toto Statement v1 (github.com/in-toto/attestation, spec/v1).
 * The statement binds the receipt (its predicate) to the artifacts it speaks about (its subjects), so
 * tools that read attestations can carry it, sign it (DSSE) and match it by digest. Nothing is added to
 * the receipt: the predicate is the receipt as written, and its id still verifies as docs/FORMAT.md says.
 */

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';

/**
 * The predicate type: which schema the predicate follows. A TypeURI need not resolve (in-toto field
 * types); `.invalid` (RFC 2606) says plainly that this project has no domain of its own yet.
 */
export function receiptPredicateType(schemaVersion: string = SCHEMA_VERSION): string {
  return `https://context-compiler.invalid/receipt/v${schemaVersion.replace(/^context-compiler\//, '')}`;
}

/**
 * The record set's digest algorithm: lowercase hex of the tree digest over each record's id and
 * fingerprint in id order (docs/FORMAT.md). It is not the SHA-256 of any one file, so it is not named
 * `sha256`; in-toto lets a producer name its own algorithm and consumers ignore names they do not know.
 */
export const RECORD_SET_DIGEST = 'contextCompilerRecordSet';

export interface ResourceDescriptor {
  readonly name: string;
  readonly digest: Readonly<Record<string, string>>;
  readonly mediaType?: string;
}

export interface ReceiptStatement {
  readonly _type: typeof STATEMENT_TYPE;
  readonly subject: readonly ResourceDescriptor[];
  readonly predicateType: string;
  readonly predicate: Receipt;
}

/**
 * The statement for `receipt`. `packetText` is the packet as it is handed on (the manifest header and
 * body that `compile --packet-out` writes and the app copies), or null when no packet was emitted: then
 * the record set is the only subject.
 */
export function receiptStatement(sha256: Sha256, receipt: Receipt, packetText: string | null): ReceiptStatement {
  const subject: ResourceDescriptor[] = [];
  if (packetText !== null)
    subject.push({
      name: 'packet.txt',
      digest: { sha256: sha256.hex(packetText) },
      mediaType: 'text/plain; charset=utf-8',
    });
  subject.push({ name: 'record-set', digest: { [RECORD_SET_DIGEST]: receipt.recordSetDigest } });
  return {
    _type: STATEMENT_TYPE,
    subject,
    predicateType: receiptPredicateType(receipt.schemaVersion),
    predicate: receipt,
  };
}

/** The statement as written to a file: canonical JSON (RFC 8785) and a newline. */
export function serialiseStatement(statement: ReceiptStatement): string {
  return `${canonicalJson(statement)}\n`;
}
