import { sha256InNode } from '../../lib/node-sha256';
import type { Contract, ContractInput } from '../../core/format/contract';
import type { RecordInput, SourceRecord } from '../../core/format/record';
import { contentHashOf } from '../../core/fingerprints';
import { sampleContract, sampleRecord, type RecordOverrides } from '../../core/format/sample-inputs';
import { GATE_ORDER, type GateName } from '../../core/result';
import { createPrng, type Prng } from '../../shared/prng';

/** One conformance case: a corpus and a contract, named for what they exercise. */
export interface ConformanceCase {
  readonly name: string;
  readonly contract: Contract;
  readonly records: readonly SourceRecord[];
}

const AS_OF = '2026-08-30T12:00:00.000Z';
/** The as-of instant and one millisecond either side, some written in other time zones (the same instants). */
const BEFORE = ['2026-08-30T11:59:59.999Z', '2026-08-30T13:59:59.999+02:00'];
const AT = [AS_OF, '2026-08-30T07:00:00-05:00'];
const AFTER = ['2026-08-30T12:00:00.001Z', '2026-08-31T00:00:00.001+12:00'];

/**
 * Look-alikes of one another: case, Cyrillic letters, a ligature, full-width. An NFD spelling or an invisible
 * character is refused at input (src/core/format/identifier.ts), so no adapter ever compares one.
 */
const NAMES = ['support', 'Support', 'ѕupport', 'billing', 'légal', 'ﬁle', 'file', 'ｓupport', 'İ', 'i̇'];
const ROLES = ['agent', 'Agent', 'аgent', 'bot', 'lead', 'ǅ'];
const PURPOSES = ['support', 'Support', 'billing', 'audit'];
const LABELS = ['hr', 'HR', 'légal', 'other', 'ħr'];
const WORDS = [
  'refund',
  'policy',
  'Refund',
  'café',
  'cafe\u0301',
  'naïve',
  'über',
  'straße',
  'timeout',
  'retry',
  'ﬁle',
  '東京',
  'x1',
  'e-mail',
];

function makeRecord(id: string, overrides: RecordOverrides = {}): SourceRecord {
  return sampleRecord(sha256InNode, { id, ...overrides });
}

/** The sample contract with two principals, a query that needs Unicode folding, and a budget a few records fill. */
function makeContract(overrides: Partial<ContractInput> = {}): Contract {
  return sampleContract({
    query: 'refund policy café',
    asOf: AS_OF,
    principals: [
      { id: 'dana', kind: 'human', roles: ['agent'] },
      { id: 'helper', kind: 'agent', roles: ['bot', 'agent'] },
    ],
    tokenBudget: 200,
    naiveTopK: 5,
    ...overrides,
  });
}

/**
 * Records that differ from one that passes every gate on one gate's fields only, and the contracts they are judged
 * under.
 */
function gateAlone(gate: GateName): ConformanceCase[] {
  const variants = (values: readonly unknown[], make: (value: unknown, index: number) => SourceRecord) =>
    values.map(make);
  const one = (name: string, records: SourceRecord[], contract: Partial<ContractInput> = {}): ConformanceCase => ({
    name: `${gate} alone: ${name}`,
    contract: makeContract(contract),
    records,
  });
  switch (gate) {
    case 'project':
      return [
        one(
          'case and look-alikes',
          variants(['atlas', 'Atlas', 'аtlas', 'atlas-'], (project, i) =>
            makeRecord(`p-${i}`, { project: project as string }),
          ),
        ),
      ];
    case 'scope':
      return [
        one(
          'two scopes among look-alikes',
          variants(NAMES, (scope, i) => makeRecord(`s-${i}`, { scope: scope as string })),
          { scopes: ['support', 'légal'] },
        ),
      ];
    case 'identity': {
      const identities = [
        { id: 'cust-1', aliases: ['Jo', 'Zoë'] },
        { id: 'cust-2', aliases: ['Jo', 'Zoëx'] },
      ];
      const subjects = [null, 'cust-1', 'Zoë', 'Zoe', 'Jo', 'cust-2', 'stranger', 'CUST-1', 'null'];
      const records = variants(subjects, (subject, i) => makeRecord(`i-${i}`, { subject: subject as string | null }));
      return [
        one('a subject with aliases, an ambiguous alias, null subjects', records, { subject: 'cust-1', identities }),
        one('no subject: only ambiguity excludes', records, { identities }),
      ];
    }
    case 'time': {
      const records: SourceRecord[] = [];
      for (const knownAt of [...BEFORE, ...AT, ...AFTER]) records.push(makeRecord(`k-${records.length}`, { knownAt }));
      for (const validFrom of [...BEFORE, ...AT, ...AFTER])
        records.push(makeRecord(`f-${records.length}`, { validFrom }));
      for (const validTo of [...BEFORE, ...AT, ...AFTER, null, '2026-08-30', '2026-08-29'])
        records.push(makeRecord(`t-${records.length}`, { validTo }));
      return [one('as-of and one millisecond either side, in several time zones', records)];
    }
    case 'supersession':
      return [
        one('a chain, successors in and out of force', [
          makeRecord('v1'),
          makeRecord('v2', { supersedes: ['v1'] }),
          makeRecord('v3', { supersedes: ['v2'], knownAt: AFTER[0] }),
          makeRecord('w1'),
          makeRecord('w2', { supersedes: ['w1'], lifecycle: 'draft' }),
          makeRecord('x1'),
          makeRecord('x2', { supersedes: ['x1'], validFrom: AT[1] }),
          makeRecord('x3', { supersedes: ['x1'], validFrom: AFTER[1], scope: 'billing' }),
        ]),
      ];
    case 'lifecycle': {
      const records = variants(['draft', 'active', 'rejected', 'retired', 'generated'], (lifecycle, i) =>
        makeRecord(`l-${i}`, { lifecycle: lifecycle as RecordInput['lifecycle'] }),
      );
      return [
        one('forbidden states', records, { forbiddenLifecycle: ['draft', 'rejected', 'generated'] }),
        one('an empty forbidden list', records, { forbiddenLifecycle: [] }),
      ];
    }
    case 'source':
      return [
        one(
          'look-alike classes',
          variants(NAMES, (sourceClass, i) => makeRecord(`c-${i}`, { sourceClass: sourceClass as string })),
          { allowedSourceClasses: ['file', 'légal'] },
        ),
      ];
    case 'authority':
      return [
        one(
          'look-alike classes',
          variants(NAMES, (authorityClass, i) => makeRecord(`a-${i}`, { authorityClass: authorityClass as string })),
          { allowedAuthorityClasses: ['İ', 'billing'] },
        ),
      ];
    case 'review': {
      const records = variants(['unreviewed', 'in_review', 'reviewed', 'approved', 'rejected'], (reviewState, i) =>
        makeRecord(`r-${i}`, { reviewState: reviewState as RecordInput['reviewState'] }),
      );
      return [one('accepted states', records, { acceptedReviewStates: ['reviewed', 'approved'] })];
    }
    case 'provenance':
      return [
        one('verified, altered and missing', [
          makeRecord('pv-ok'),
          makeRecord('pv-bad', {
            provenance: { origin: 'crm/x', contentHash: contentHashOf(sha256InNode, 'another text') },
          }),
          makeRecord('pv-none', { provenance: null }),
        ]),
      ];
    case 'sensitivity': {
      const records = variants(['internal', 'secret', 'Secret', 'public'], (sensitivity, i) =>
        makeRecord(`se-${i}`, { sensitivity: sensitivity as string }),
      );
      return [
        one('a forbidden level', records, { forbiddenSensitivity: ['secret'] }),
        one('an empty forbidden list', records, { forbiddenSensitivity: [] }),
      ];
    }
    case 'authorisation': {
      const records: SourceRecord[] = [];
      for (const roles of [['agent'], ['bot'], ['Agent'], ['agent', 'bot'], ['аgent'], ['lead']])
        for (const purposes of [['support'], ['Support'], ['billing', 'support'], ['audit']])
          records.push(makeRecord(`au-${records.length}`, { access: { roles, purposes } }));
      return [
        one('a chain of two principals, look-alike roles and purposes', records),
        one('one principal', records, {
          principals: [{ id: 'dana', kind: 'human', roles: ['bot'] }],
          purpose: 'billing',
        }),
      ];
    }
    case 'deny': {
      const records = variants([[], ['hr'], ['HR'], ['légal'], ['other', 'hr'], ['ħr']], (labels, i) =>
        makeRecord(`d-${i}`, { access: { labels: labels as string[] } }),
      );
      return [
        one('deny labels among look-alikes', records, { denyLabels: ['hr', 'légal'] }),
        one('no deny label', records, { denyLabels: [] }),
      ];
    }
    case 'evidence': {
      const evidence = [
        null,
        { class: 'waiver', supports: ['p1'] },
        { class: 'email', supports: ['p1'] },
        { class: 'waiver', contradicts: ['p1'] },
        { class: 'waiver', supports: ['p2'] },
        { class: 'Waiver', supports: ['p1'] },
      ];
      const records = evidence.map((item, i) =>
        makeRecord(`e-${i}`, {
          evidence:
            item === null
              ? null
              : { class: item.class, supports: item.supports ?? [], contradicts: item.contradicts ?? [] },
        }),
      );
      return [
        one('typed evidence with a required record', records, {
          typedEvidenceOnly: true,
          requiredRecords: ['e-0'],
          requiredPropositions: [{ id: 'p1', acceptedClasses: ['waiver'] }],
        }),
      ];
    }
  }
}

function pickSome<T>(random: Prng, items: readonly T[], most: number): T[] {
  const out: T[] = [];
  for (const item of items) if (out.length < most && random.chance(0.35)) out.push(item);
  return out;
}

/** A record's roles and purposes are never empty (the record format requires one of each). */
function atLeastOne<T>(random: Prng, items: readonly T[], most: number): T[] {
  const some = pickSome(random, items, most);
  return some.length > 0 ? some : [random.pick(items)];
}

/**
 * Every gate at once over random values from the look-alike pools: the combinations no hand-written case
 * lists. Each field passes its gate nine times in ten, so that a good part of each corpus is admitted.
 */
function combined(seed: number): ConformanceCase {
  const random = createPrng(seed);
  const usually = <T>(passing: () => T, other: () => T): T => (random.chance(0.9) ? passing() : other());
  const scopes = [random.pick(NAMES.slice(0, 4)), random.pick(NAMES.slice(0, 4))];
  const sourceClasses = ['ticket', random.pick(['email', 'Ticket'])];
  const principals = [{ id: 'dana', kind: 'human' as const, roles: [random.pick(ROLES)] }];
  if (random.chance(0.5))
    principals.push({ id: 'helper', kind: 'human' as const, roles: [random.pick(ROLES), random.pick(ROLES)] });
  const purpose = random.pick(PURPOSES);
  const denyLabels = pickSome(random, LABELS, 2);
  const contract = makeContract({
    query: Array.from({ length: random.int(1, 4) }, () => random.pick(WORDS)).join(' '),
    subject: random.chance(0.5) ? 'cust-1' : null,
    identities: [
      { id: 'cust-1', aliases: ['Jo'] },
      { id: 'cust-2', aliases: random.chance(0.5) ? ['Jo'] : [] },
    ],
    scopes,
    allowedSourceClasses: sourceClasses,
    acceptedReviewStates: random.chance(0.5) ? ['approved'] : ['approved', 'reviewed'],
    forbiddenLifecycle: random.chance(0.5) ? ['draft'] : [],
    forbiddenSensitivity: random.chance(0.5) ? ['secret'] : [],
    denyLabels,
    principals,
    purpose,
    typedEvidenceOnly: random.chance(0.25),
    requiredPropositions: [{ id: 'p1', acceptedClasses: ['waiver'] }],
  });
  const count = random.int(20, 40);
  const ids = Array.from({ length: count }, (_, i) =>
    random.pick([`m${seed}-${i}`, `m${seed}-é${i}`, `m${seed}-е${i}`]),
  );
  const instant = () => random.pick([...BEFORE, ...AT, ...AFTER]);
  const records = ids.map((id, i) => {
    const earlier = ids.slice(0, i);
    const roles = usually(
      () => principals.map((principal) => random.pick(principal.roles)),
      () => atLeastOne(random, ROLES, 2),
    );
    return makeRecord(id, {
      title: `${random.pick(WORDS)} ${id}`,
      text: Array.from({ length: random.int(0, 12) }, () => random.pick(WORDS)).join(' '),
      project: usually(
        () => 'atlas',
        () => 'Atlas',
      ),
      scope: usually(
        () => random.pick(scopes),
        () => random.pick(NAMES),
      ),
      subject: random.pick([null, null, null, 'cust-1', 'Jo', 'cust-2', 'stranger']),
      knownAt: usually(() => '2026-01-01', instant),
      validFrom: usually(() => '2026-01-01', instant),
      validTo: random.chance(0.6) ? null : instant(),
      lifecycle: usually(
        () => 'active' as const,
        () => random.pick(['draft', 'retired', 'rejected'] as const),
      ),
      supersedes: earlier.length > 0 && random.chance(0.2) ? [random.pick(earlier)] : [],
      sourceClass: usually(
        () => random.pick(sourceClasses),
        () => random.pick(['Ticket', 'email', 'tickеt']),
      ),
      reviewState: usually(
        () => 'approved' as const,
        () => random.pick(['reviewed', 'unreviewed'] as const),
      ),
      sensitivity: usually(
        () => 'internal',
        () => 'secret',
      ),
      ...(random.chance(0.1) ? { provenance: null } : {}),
      access: {
        roles,
        purposes: usually(
          () => [purpose, ...pickSome(random, PURPOSES, 1)],
          () => atLeastOne(random, PURPOSES, 2),
        ),
        labels:
          random.chance(0.2) && denyLabels.length > 0
            ? [random.pick(denyLabels)]
            : pickSome(
                random,
                LABELS.filter((label) => !denyLabels.includes(label)),
                1,
              ),
      },
      evidence: random.chance(0.4)
        ? {
            class: random.pick(['waiver', 'waiver', 'email']),
            supports: random.chance(0.6) ? ['p1'] : [],
            contradicts: random.chance(0.3) ? ['p1'] : [],
          }
        : null,
    });
  });
  return { name: `combined #${seed}`, contract, records };
}

/**
 * The suite's cases: every gate alone (with the empty lists, null subjects, look-alikes and instants each
 * gate can meet), then `combinedCount` random combinations of every gate at once. Deterministic.
 */
export function conformanceCases(combinedCount = 16): ConformanceCase[] {
  const cases = GATE_ORDER.flatMap(gateAlone);
  for (let seed = 1; seed <= combinedCount; seed += 1) cases.push(combined(seed));
  return cases;
}

/**
 * Broken supersession links: a record superseding an absent id, a draft superseding itself, and a cycle
 * whose draft member cannot supersede the other. Each would be admitted but for its broken link, so only
 * the plan's list of broken ids (which resolve found) excludes them: an adapter that drops or alters that
 * clause admits one of them.
 */
export function brokenLinksCase(): ConformanceCase {
  return {
    name: 'broken supersession links',
    contract: makeContract(),
    records: [
      makeRecord('b-dangling', { supersedes: ['NOPE'] }),
      makeRecord('b-self', { supersedes: ['b-self'], lifecycle: 'draft' }),
      makeRecord('c1', { supersedes: ['c2'] }),
      makeRecord('c2', { supersedes: ['c1'], lifecycle: 'draft' }),
      makeRecord('c3'),
    ],
  };
}
