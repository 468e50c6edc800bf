import { canonicalJson } from './canonical';
import { disclosedFailure, type DisclosedFailure, type DisclosedView } from './disclosure';
import { USER_VIEW_FORMAT, USER_VIEW_VERSION, type UserViewExport } from './format/user-view-export';
import type { Sha256 } from './fingerprints';
import { rankOf } from './ranked';
import { factContextOf, renderFact } from './reasons';
import type { CompileOutcome } from './result';

export const USER_VIEW_NOTICE =
  'User view: records outside the authorised scope are counted, never named. This is not a receipt: ' +
  'its rows are incomplete, so no receipt id can be recomputed from it, and it carries no digest that ' +
  'covers a withheld record. The diagnostic receipt is exported only from the diagnostic view.';

/**
 * Counts as the user view may state them: its own rows and the records it may see that a compile answered by a store
 * excluded without a row, with the withheld records counted apart.
 */
export interface UserViewCounts {
  readonly candidates: number;
  readonly admitted: number;
  readonly selected: number;
  readonly excluded: number;
  readonly withheld: number;
}

/** Everything the user view prints, shows, copies or downloads of one compilation. */
export interface UserView {
  /** The user-view id: see `userViewIdOf`. */
  readonly id: string;
  /** The document "Download user view" and `compile --user-view-out` write (docs/FORMAT.md, "User-view export"). */
  readonly document: UserViewExport;
  /** The packet with its user-view manifest; null when no packet was emitted. */
  readonly packetText: string | null;
  readonly failure: DisclosedFailure | null;
  readonly counts: UserViewCounts;
}

type WithoutId = Omit<UserViewExport, 'userViewId'>;

/**
 * The user-view id: SHA-256 of the canonical JSON of the user-view document without `userViewId`,
 * `withheldCount` and `withheldNotice`. It covers exactly what the caller may see (contract and packet
 * by their fingerprints, the visible rows with their facts as worded, evidence, failure as worded) and
 * deliberately not the withheld count, so editing, adding or removing a withheld record leaves it as it is.
 */
export function userViewIdOf(sha256: Sha256, document: WithoutId & { readonly userViewId?: string }): string {
  const { withheldCount: _count, withheldNotice: _notice, userViewId: _id, ...covered } = document;
  return sha256.hex(canonicalJson(covered));
}

/** The bytes of "Download user view" and `compile --user-view-out`: canonical JSON, no newline. */
export function serialiseUserView(document: UserViewExport): string {
  return canonicalJson(document);
}

function withheldClause(count: number): string {
  return count === 0
    ? 'no record is withheld'
    : `${count} record${count === 1 ? ' is' : 's are'} outside the authorised scope and not named`;
}

/**
 * The packet with a user-view manifest: the user-view id in place of the receipt id, and no record-set
 * digest (both of those cover withheld records, so a change to one would show in them).
 */
function userPacketText(body: string, document: UserViewExport, engine: string): string {
  return [
    '=== CONTEXT PACKET ===',
    `view: user (${withheldClause(document.withheldCount)}; the receipt id and record-set digest are not ` +
      `part of the user view)`,
    `user view: ${document.userViewId}`,
    `packet fingerprint: sha256:${document.packetFingerprint ?? ''}`,
    `contract fingerprint: sha256:${document.contractFingerprint}`,
    `engine: ${engine}`,
    '======================',
    body,
  ].join('\n');
}

/**
 * Builds the user view of one compilation from its user disclosure, so it can hold nothing the trace's user rows do
 * not.
 */
export function buildUserView(sha256: Sha256, outcome: CompileOutcome, view: DisclosedView): UserView {
  if (view.audience !== 'user') throw new Error('buildUserView needs the user disclosure');
  const { receipt } = outcome;
  const context = factContextOf(receipt.contract);
  const failure = disclosedFailure(outcome, view, context);
  // No baselines: their whole-corpus scores are shaped by records the user may not see.
  const body: WithoutId = {
    format: USER_VIEW_FORMAT,
    version: USER_VIEW_VERSION,
    view: 'user',
    notice: USER_VIEW_NOTICE,
    outcome: outcome.status,
    task: receipt.contract.task,
    asOf: receipt.contract.asOf,
    contractFingerprint: receipt.contractFingerprint,
    packetFingerprint: receipt.packetFingerprint,
    controls: [...receipt.controls],
    lateChanges: [...receipt.lateChanges],
    tokenBudget: receipt.contract.tokenBudget,
    tokensUsed: receipt.tokensUsed,
    selected: [...receipt.selected],
    evidence: receipt.evidence.map((slot) => ({
      proposition: slot.proposition,
      state: slot.state,
      records: [...slot.records],
    })),
    decisionBlockedBy: [...receipt.decisionBlockedBy],
    failure,
    withheldCount: view.withheldCount,
    withheldNotice: view.withheldNotice,
    trace: view.rows.map((row) => ({
      id: row.id,
      decision: row.decision,
      code: row.code,
      fact: renderFact(row, context),
      tokens: row.tokens,
      required: row.required,
      ...rankOf(view.ranks, row.id),
    })),
  };
  const id = userViewIdOf(sha256, body);
  const document: UserViewExport = { ...body, userViewId: id };
  const excluded =
    view.rows.reduce((count, row) => count + (row.decision === 'excluded' ? 1 : 0), 0) + view.excludedWithoutRow;
  return {
    id,
    document,
    packetText:
      outcome.status === 'packet'
        ? userPacketText(outcome.packet.body, document, `${receipt.engineVersion} (${receipt.schemaVersion})`)
        : null,
    failure,
    counts: {
      candidates: view.rows.length + view.excludedWithoutRow,
      admitted: outcome.counts.admitted,
      selected: outcome.counts.selected,
      excluded,
      withheld: view.withheldCount,
    },
  };
}
