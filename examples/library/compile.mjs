// Compiles a contract over records from a program, then judges the receipt with the fire drill.
// Run it in a project that has installed the package (README: "Install it in your own project"): node compile.mjs
import { compile, drill, version } from 'context-compiler';

// A contract and one record in the formats of docs/FORMAT.md (the retry-policy scenario's, cut down).
const contract = {
  task: 'Recommend the retry and backoff behaviour for card authorisation timeouts in the payments gateway',
  query: 'retry backoff policy for card authorisation timeouts',
  asOf: '2026-03-16',
  principals: [
    {
      id: 'dana.okafor',
      kind: 'human',
      roles: ['payments_engineer'],
    },
    {
      id: 'design-review-agent',
      kind: 'agent',
      roles: ['design_assistant'],
    },
  ],
  purpose: 'architecture_decision',
  project: 'payments-platform',
  scopes: ['gateway'],
  subject: 'svc-gateway',
  allowedSourceClasses: ['adr', 'runbook', 'postmortem', 'config_reference'],
  allowedAuthorityClasses: ['architecture_board', 'sre_team', 'service_owner', 'security_team'],
  acceptedReviewStates: ['reviewed', 'approved'],
  forbiddenLifecycle: ['draft', 'rejected', 'retired', 'generated'],
  denyLabels: ['legal_hold'],
  requiredRecords: ['ADR-0234'],
  requiredPropositions: [],
  tokenBudget: 96,
  naiveTopK: 5,
  ranking: 'bm25',
  identities: [],
};

const records = [
  {
    id: 'ADR-0234',
    title: 'ADR-0234: Bounded exponential reattempts for issuer calls',
    text: 'Decision: a call to an issuer that exceeds its deadline is reattempted at most three times, with exponential delay and full jitter capped at eight seconds. Every reattempt reuses the idempotency key of the first attempt. The reattempt budget is shared per merchant so a slow issuer cannot multiply load.',
    tokens: 30,
    project: 'payments-platform',
    scope: 'gateway',
    subject: 'svc-gateway',
    knownAt: '2026-02-03',
    validFrom: '2026-02-09',
    validTo: null,
    lifecycle: 'active',
    supersedes: [],
    sourceClass: 'adr',
    authorityClass: 'architecture_board',
    reviewState: 'approved',
    provenance: {
      origin: 'git:payments-platform/docs/ADR-0234',
      contentHash: 'sha256:f44fa3cb475f31c7f5fd6636c8a84cf483c90be158d45f23a24dec8abe8276dd',
    },
    sensitivity: 'internal',
    access: {
      roles: ['payments_engineer', 'design_assistant'],
      purposes: ['architecture_decision', 'incident_review'],
      labels: [],
    },
    evidence: null,
  },
];

const answer = await compile({ contract, records });
if (!answer.ok) {
  // The CLI's codes and places: the phase, the code, and each issue's file, line and field.
  console.error(`${answer.error.pass} ${answer.error.code}: ${answer.error.message}`);
  for (const issue of answer.error.issues ?? []) console.error(`  ${issue.path}: ${issue.message}`);
  process.exit(1);
}
console.log(`context-compiler ${version}: ${answer.value.status}`);
console.log(answer.value.packetText ?? answer.value.failure?.message);

// The fire drill: the receipt is current while the contract and records are the ones it was made from.
const verdict = await drill({ contract, records, receipt: answer.value.receiptText });
console.log(`drill: ${verdict.ok ? verdict.value.code : verdict.error.code}`);
