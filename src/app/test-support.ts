import { vi } from 'vitest';
import type { Coverage } from '../core/expectations/coverage';
import { GATE_ORDER } from '../core/result';
import { DEFAULT_TRACE_QUERY } from '../shared/trace-page';
import type {
  CompilerApi,
  CompileView,
  PacketColumn,
  RecordInspection,
  ScenarioSummary,
  WorkspaceSnapshot,
} from '../worker/protocol';
import { setCompilerApi } from './worker-client';
import { INITIAL_DEBUG, useDebugStore } from './state/debug-store';
import { INITIAL_DRILL, useDrillStore } from './state/drill-store';
import { INITIAL_TESTS, useTestsStore } from './state/tests-store';
import { EMPTY_TRACE, useResultStore } from './state/result-store';
import { useScenarioStore } from './state/scenario-store';
import { useTourStore } from './state/tour-store';
import { useUiStore } from './state/ui-store';
import { wordMessage } from '../core/messages';

const column = (kind: PacketColumn['kind'], change: Partial<PacketColumn> = {}): PacketColumn => ({
  kind,
  emitted: true,
  entries: [],
  tokensUsed: 0,
  tokenBudget: 96,
  illegalCount: 0,
  emptyNote: null,
  requiredMissed: [],
  coverage: [],
  ...change,
});

/** A compiled view shaped like the default scenario's, for rendering panels without a worker. */
export function sampleView(change: Partial<CompileView> = {}): CompileView {
  return {
    compilation: 1,
    scenarioKey: 'retry-policy',
    audience: 'diagnostic',
    baselineIndexing: null,
    status: 'packet',
    counts: { candidates: 3, admitted: 2, selected: 1, excluded: 2, withheld: 0 },
    receiptId: 'a'.repeat(64),
    userViewId: null,
    contractFingerprint: 'b'.repeat(64),
    recordSetDigest: 'c'.repeat(64),
    packetFingerprint: 'd'.repeat(64),
    tokensUsed: 30,
    tokenBudget: 96,
    columns: {
      naive: column('naive', {
        entries: [
          { id: 'LED-0045', title: 'Ledger retry', tokens: 18, required: false, illegal: true, code: 'EXCLUDE_SCOPE' },
        ],
        tokensUsed: 18,
        illegalCount: 1,
        requiredMissed: ['ADR-0234'],
      }),
      postFilter: column('post-filter', { requiredMissed: ['ADR-0234'] }),
      compiled: column('compiled', {
        entries: [
          {
            id: 'ADR-0234',
            title: 'Bounded retries',
            tokens: 30,
            required: true,
            illegal: false,
            code: 'SELECTED_REQUIRED',
          },
        ],
        tokensUsed: 30,
      }),
    },
    failure: null,
    evidence: [],
    evidenceAttempts: [],
    decisionBlockedBy: [],
    packetText: '=== CONTEXT PACKET ===\nreceipt: aaaa',
    withheldCount: 0,
    withheldNotice: null,
    unreadable: [],
    controls: [],
    lateChanges: [],
    compiledContract: sampleScenario().contract,
    recordCount: 13,
    appliedChanges: [],
    changeTexts: [],
    marks: null,
    traceCodes: [
      { code: 'SELECTED_REQUIRED', count: 1 },
      { code: 'EXCLUDE_IDENTITY', count: 1 },
    ],
    ...change,
  };
}

export function sampleScenario(change: Partial<ScenarioSummary> = {}): ScenarioSummary {
  return {
    key: 'retry-policy',
    title: 'Retry policy',
    description: 'Default scenario.',
    origin: 'builtin',
    recordCount: 13,
    controls: [
      {
        id: 'remove-provenance',
        label: 'Remove required provenance',
        explanation: 'Drops the provenance of ADR-0234.',
        records: ['ADR-0234'],
      },
    ],
    lateChanges: [
      {
        id: 'promote-run-0880',
        label: 'Late correction: RUN-0880 is required',
        explanation: 'The user adds RUN-0880.',
        records: [],
      },
    ],
    lateChangesGeneric: false,
    tour: null,
    contract: {
      task: 'Retry policy',
      query: 'retry backoff',
      asOf: '2026-03-01',
      principals: [{ id: 'dana', kind: 'human', roles: ['engineer'] }],
      purpose: 'engineering',
      project: 'payments-platform',
      scopes: ['gateway'],
      subject: null,
      identities: [],
      allowedSourceClasses: ['adr'],
      allowedAuthorityClasses: ['decision'],
      acceptedReviewStates: ['approved'],
      forbiddenLifecycle: [],
      forbiddenSensitivity: [],
      denyLabels: [],
      requiredRecords: ['ADR-0234'],
      requiredPropositions: [],
      typedEvidenceOnly: false,
      tokenBudget: 96,
      naiveTopK: 5,
      ranking: 'bm25',
    },
    contractEdited: false,
    recordsEdited: false,
    ...change,
  };
}

export function sampleWorkspace(change: Partial<WorkspaceSnapshot> = {}): WorkspaceSnapshot {
  return {
    scenarios: [sampleScenario()],
    selection: { scenarioKey: 'retry-policy', controls: [], lateChanges: [] },
    storage: { status: 'persistent' },
    database: { kind: 'opfs' },
    databaseNotice: null,
    restoreIssues: [],
    ...change,
  };
}

/** A worker stand-in whose every method is a spy; tests override the answers they care about. */
/** An inspection shaped like the worker's, for the inspector's tests. */
export function sampleInspection(change: Partial<RecordInspection> = {}): RecordInspection {
  return {
    id: 'P2',
    title: 'Credit policy P2',
    text: 'The old policy.',
    decision: 'excluded',
    code: 'EXCLUDE_SUPERSEDED',
    fact: 'superseded by P3 (in force from 2026-07-22)',
    tokens: 240,
    required: false,
    score: null,
    rank: null,
    packetPosition: null,
    metadata: [{ field: 'project', value: 'northbank-uk' }],
    gates: GATE_ORDER.map((gate) =>
      gate === 'supersession'
        ? {
            gate,
            passed: false,
            code: 'EXCLUDE_SUPERSEDED' as const,
            fact: 'superseded by P3 (in force from 2026-07-22)',
          }
        : { gate, passed: true, code: null, fact: null },
    ),
    supersededBy: { id: 'P3', since: '2026-07-22' },
    supersedes: [],
    receiptRow: '{"id":"P2","decision":"excluded"}',
    ...change,
  };
}

export function installFakeApi(change: Partial<CompilerApi> = {}, restart: () => void = () => undefined): CompilerApi {
  const view = sampleView();
  const api: CompilerApi = {
    holdLifeline: vi.fn(async () => undefined),
    rememberedResult: vi.fn(async () => null),
    start: vi.fn(async () => sampleWorkspace()),
    select: vi.fn(async (selection) => sampleWorkspace({ selection })),
    compile: vi.fn(async () => ({ ok: true as const, view })),
    disclose: vi.fn(async (audience) => ({ ok: true as const, view: { ...view, audience } })),
    awaitBaselines: vi.fn(async () => ({ ok: true as const, view })),
    queryTrace: vi.fn(async () => ({ offset: 0, rows: [], matched: 0, total: 0 })),
    firstEvidenceAttempts: vi.fn(async () => null),
    evidenceAttempts: vi.fn(async () => null),
    receiptJson: vi.fn(async () => '{}'),
    packetJson: vi.fn(async () => '{}'),
    userViewJson: vi.fn(async () => '{}'),
    statementJson: vi.fn(async () => '{}'),
    updateContract: vi.fn(async () => ({ ok: true as const, snapshot: sampleWorkspace() })),
    checkContract: vi.fn(async () => []),
    revertContract: vi.fn(async () => sampleWorkspace()),
    saveWorkspace: vi.fn(async () => sampleWorkspace()),
    exportScenario: vi.fn(async () => ({ fileName: 'retry-policy.scenario.json', json: '{}', edited: false })),
    recordForEdit: vi.fn(async (id) => ({
      ok: false as const,
      message: wordMessage('NO_RECORD_IN_VIEW', { id }),
      ids: [],
      history: { scenarioKey: 'retry-policy', revision: 0, canUndo: false, canRedo: false },
    })),
    editRecord: vi.fn(async () => ({
      ok: false as const,
      issues: [],
      history: { scenarioKey: 'retry-policy', revision: 0, canUndo: false, canRedo: false },
    })),
    undoRecordEdit: vi.fn(async () => ({
      ok: false as const,
      issues: [],
      history: { scenarioKey: 'retry-policy', revision: 0, canUndo: false, canRedo: false },
    })),
    redoRecordEdit: vi.fn(async () => ({
      ok: false as const,
      issues: [],
      history: { scenarioKey: 'retry-policy', revision: 0, canUndo: false, canRedo: false },
    })),
    createShareLink: vi.fn(async () => ({
      ok: true as const,
      fragment: 'share=1.AAAA',
      fileBytes: 0,
      files: 0,
      edits: 0,
    })),
    checkShareLink: vi.fn(async () => ({ ok: true as const, files: 0, edits: 0, scenarioKey: 'retry-policy' })),
    openShareLink: vi.fn(async () => ({ ok: true as const, snapshot: sampleWorkspace(), screen: null })),
    loadFiles: vi.fn(async () => ({ status: 'cancelled' as const })),
    cancelLoad: vi.fn(async () => undefined),
    freezeReceipt: vi.fn(async () => ({ frozenReceiptId: view.receiptId, declared: [] })),
    declareLateChange: vi.fn(async (id) => ({ frozenReceiptId: view.receiptId, declared: [id] })),
    attemptContinue: vi.fn(async () => null),
    checkReceipts: vi.fn(async () => []),
    resetDrill: vi.fn(async () => ({ frozenReceiptId: null, declared: [] })),
    resetWorkspace: vi.fn(async () => sampleWorkspace()),
    diffReceipts: vi.fn(async () => ({ ok: false as const, issues: [] })),
    inspectRecord: vi.fn(async (id) => ({ ok: false as const, message: wordMessage('NO_RECORD_IN_VIEW', { id }) })),
    whatWouldChange: vi.fn(async (id) => ({ ok: false as const, message: wordMessage('NO_RECORD_IN_VIEW', { id }) })),
    applySuggestion: vi.fn(async () => ({ ok: true as const, snapshot: sampleWorkspace() })),
    pinBaseline: vi.fn(async () => ({
      scenarioTitle: 'Retry policy',
      asOf: '2026-03-01',
      outcome: 'packet' as const,
      selected: 1,
    })),
    clearBaseline: vi.fn(async () => undefined),
    baselineDiff: vi.fn(async () => null),
    asOfStops: vi.fn(async () => ({ asOf: '2026-03-01', before: [], after: [], total: 0, lockedBy: null })),
    stepAsOf: vi.fn(async () => ({ ok: true as const, snapshot: sampleWorkspace() })),
    asOfDiff: vi.fn(async () => null),
    openSuites: vi.fn(async () => ({ ok: true as const, view: { suites: [], coverage: null, passed: 0, failed: 0 } })),
    closeSuite: vi.fn(async () => ({ suites: [], coverage: null, passed: 0, failed: 0 })),
    suiteText: vi.fn(async () => null),
    checkSuite: vi.fn(async () => []),
    caseFromScreen: vi.fn(async () => ({ ok: false as const, issues: [] })),
    updatedSuite: vi.fn(async () => ({ ok: false as const, issues: [] })),
    runTests: vi.fn(async () => null),
    runSeed000: vi.fn(async () => ({ status: 'cancelled' as const, partial: null })),
    runScenarioComparison: vi.fn(async () => ({ status: 'cancelled' as const, partial: null })),
    runGrowth: vi.fn(async () => ({ status: 'cancelled' as const, partial: null })),
    runFoundation: vi.fn(async () => ({ status: 'cancelled' as const, partial: null })),
    cancelEvaluation: vi.fn(async () => undefined),
    ...change,
  };
  setCompilerApi(api, restart);
  return api;
}

/** Puts every store back to its first state, with the sample workspace and view loaded. */
export function resetStores(view: CompileView = sampleView()): void {
  useScenarioStore.setState({
    workspace: sampleWorkspace(),
    contractIssues: [],
    load: { status: 'idle' },
    exportNotice: null,
  });
  useResultStore.setState({
    response: { ok: true, view },
    failure: null,
    revision: 0,
    compiling: false,
    rememberedReceipt: null,
    baselineProgress: null,
    traceQuery: DEFAULT_TRACE_QUERY,
    trace: EMPTY_TRACE,
  });
  useDrillStore.setState(INITIAL_DRILL);
  useDebugStore.setState(INITIAL_DEBUG);
  useTestsStore.setState(INITIAL_TESTS);
  useUiStore.setState({
    audience: 'diagnostic',
    activeView: 'compare',
    workspace: 'debugger',
    theme: 'light',
    notice: null,
    fatal: null,
    workerNotice: null,
    glossary: { open: false, target: null },
    offline: 'pending',
    installPrompt: null,
  });
  useTourStore.setState({ running: null });
}

/** Coverage shaped like the worker's: `reached` of each dimension out of `reached` plus `missed`. */
export function sampleCoverage(missedCodes: readonly string[] = ['EXCLUDE_AUTHORITY']): Coverage {
  const dimension = (reached: string[], missed: readonly string[]) => ({
    reached,
    missed: [...missed],
    percent:
      reached.length + missed.length === 0
        ? 100
        : Math.floor((reached.length / (reached.length + missed.length)) * 100),
  });
  return {
    codes: dimension(['SELECTED_REQUIRED', 'EXCLUDE_FUTURE', 'EXCLUDE_SCOPE'], missedCodes),
    gates: dimension(['time'], []),
    controls: dimension(['future-reveal'], ['tight-budget']),
    lateChanges: dimension([], []),
    propositions: dimension(['waiver'], []),
  };
}
