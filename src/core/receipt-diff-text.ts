import { canonicalJson } from './canonical';
import { sameJson, type FieldChange } from './json-compare';
import type { ReceiptDiff } from './receipt-diff';

/*
 * A receipt diff in words: titled sections of plain lines that the CLI prints and the app shows alike.
 */

/** A value as a reader wants it: strings bare, string lists as `[a, b]`, anything else as canonical JSON. */
export function showValue(value: unknown, maxLength = 160): string {
  let text: string;
  // A fingerprint reads as well by its first twelve digits; --json keeps all 64.
  if (typeof value === 'string' && /^[0-9a-f]{64}$/.test(value)) text = `${value.slice(0, 12)}…`;
  else if (typeof value === 'string') text = value;
  else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) text = `[${value.join(', ')}]`;
  else text = canonicalJson(value ?? null);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

export interface DiffSection {
  /** A stable key, one per section of `ReceiptDiff`. */
  readonly key: 'contract' | 'fields' | 'records' | 'decisions' | 'rows' | 'evidence' | 'packet';
  readonly title: string;
  readonly lines: readonly string[];
  /** Lines left out beyond the limit. */
  readonly more: number;
}

/**
 * How a diff names what changed: the CLI keeps the format's field names and ids (what `--json` and FORMAT.md use), the
 * app words them.
 */
export interface DiffWords {
  /** A receipt field or trace-row field, by its path in the receipt (`ranking.candidates`, `args`). */
  readonly field: (path: string) => string;
  /** A control or late change, by its id. */
  readonly change: (id: string) => string;
}

export const FORMAT_NAMES: DiffWords = { field: (path) => path, change: (id) => id };

/** Receipt and trace-row fields as a reader says them; a path under one is worded by its first segment. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  schemaVersion: 'schema version',
  engineVersion: 'engine version',
  outcome: 'outcome',
  contractFingerprint: 'contract fingerprint',
  recordSetDigest: 'record set digest',
  controls: 'controls',
  lateChanges: 'late changes',
  ranking: 'ranking statistics',
  executedBy: 'executed by',
  decisionBlockedBy: 'decision reserved for a person on',
  failure: 'failure',
  args: 'boundary fact details',
  fact: 'boundary fact',
  gates: 'gates failed',
  tokens: 'tokens',
  required: 'required',
  score: 'score',
  rank: 'rank',
};

/** The app's words: field names said as words, controls and late changes by their labels. */
export function diffWordsWith(changeLabel: (id: string) => string): DiffWords {
  return {
    field: (path) => {
      const [head = path, ...rest] = path.split('.');
      const word = FIELD_WORDS[head];
      return word === undefined ? path : [word, ...rest].join(' ');
    },
    change: changeLabel,
  };
}

const list = (ids: readonly string[]) => (ids.length === 0 ? '-' : ids.join(', '));
const shortHash = (hex: string | null) => (hex === null ? 'none' : hex.slice(0, 12));

/**
 * The diff as titled sections of plain lines, at most `limit` lines each (the rest counted), so the CLI
 * and the app word it the same. Sections with nothing to say are left out.
 */
export function describeDiff(diff: ReceiptDiff, limit = 50, words: DiffWords = FORMAT_NAMES): DiffSection[] {
  const sections: DiffSection[] = [];
  const add = (key: DiffSection['key'], title: string, lines: readonly string[]) => {
    if (lines.length === 0) return;
    sections.push({ key, title, lines: lines.slice(0, limit), more: Math.max(0, lines.length - limit) });
  };
  const change = ({ field, before, after }: FieldChange) => `${field} ${showValue(before)} → ${showValue(after)}`;
  // Controls and late changes are lists of ids: each is named as the words say.
  const named = (field: string, value: unknown) =>
    (field === 'controls' || field === 'lateChanges') && Array.isArray(value)
      ? value.map((id) => (typeof id === 'string' ? words.change(id) : id))
      : value;
  const receiptChange = ({ field, before, after }: FieldChange) =>
    `${words.field(field)} ${showValue(named(field, before))} → ${showValue(named(field, after))}`;
  add('contract', `Contract fields changed (${diff.contract.length})`, diff.contract.map(change));
  add('fields', `Receipt fields changed (${diff.fields.length})`, diff.fields.map(receiptChange));

  const { added, removed, changed } = diff.records;
  const recordLines = [
    ...added.map((id) => `+ ${id}`),
    ...removed.map((id) => `- ${id}`),
    ...(changed ?? []).map((id) => `~ ${id}`),
  ];
  const changedCount = changed === null ? 'changed unknown (rows without fingerprints)' : `${changed.length} changed`;
  if (recordLines.length > 0 || changed === null) {
    add(
      'records',
      `Records: ${added.length} added, ${removed.length} removed, ${changedCount}`,
      recordLines.length > 0 ? recordLines : ['(no record added or removed)'],
    );
  }

  add(
    'decisions',
    `Decisions changed (${diff.decisions.length})`,
    diff.decisions.map(({ id, before, after }) =>
      before.code === after.code
        ? `${id} ${before.decision} → ${after.decision} (${after.code})`
        : `${id} ${before.code} → ${after.code}`,
    ),
  );
  add(
    'rows',
    `Other trace changes (${diff.rows.length})`,
    diff.rows.map(({ id, fields }) => `${id}: ${fields.map(words.field).join(', ')}`),
  );
  add(
    'evidence',
    `Evidence slots changed (${diff.evidence.length})`,
    diff.evidence.map(({ proposition, before, after }) => {
      if (!before) return `${proposition} added: ${after?.state ?? ''} (${list(after?.records ?? [])})`;
      if (!after) return `${proposition} removed (was ${before.state})`;
      const records = sameJson(before.records, after.records)
        ? ''
        : ` (records ${list(before.records)} → ${list(after.records)})`;
      return `${proposition} ${before.state} → ${after.state}${records}`;
    }),
  );

  const packet = diff.packet;
  const packetLines: string[] = [];
  if (packet.in.length > 0) packetLines.push(`in: ${packet.in.join(', ')}`);
  if (packet.out.length > 0) packetLines.push(`out: ${packet.out.join(', ')}`);
  if (packet.reordered) packetLines.push('same records in another order');
  if (packet.tokensBefore !== packet.tokensAfter)
    packetLines.push(`tokens ${packet.tokensBefore} → ${packet.tokensAfter}`);
  if (packet.fingerprintBefore !== packet.fingerprintAfter)
    packetLines.push(`fingerprint ${shortHash(packet.fingerprintBefore)} → ${shortHash(packet.fingerprintAfter)}`);
  add('packet', 'Packet', packetLines);
  return sections;
}

/** The whole diff as text, for the CLI. */
export function renderDiffText(diff: ReceiptDiff, limit = 50): string {
  const head =
    `${shortHash(diff.before.receiptId)} (${diff.before.schemaVersion}) → ` +
    `${shortHash(diff.after.receiptId)} (${diff.after.schemaVersion})`;
  if (diff.identical) return `${head}\nidentical: the same canonical bytes\n`;
  const lines = [head];
  const first = diff.firstDifference;
  if (first)
    lines.push(`first difference: ${first.path}${first.recordId !== null ? ` (record ${first.recordId})` : ''}`);
  for (const section of describeDiff(diff, limit)) {
    lines.push('', `${section.title}:`);
    for (const line of section.lines) lines.push(`  ${line}`);
    if (section.more > 0) lines.push(`  … and ${section.more} more (--json lists all)`);
  }
  return `${lines.join('\n')}\n`;
}
