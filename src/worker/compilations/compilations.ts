import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import { discloseOutcome, type Audience, type DisclosedView } from '../../core/disclosure';
import type { CompileError, Result } from '../../core/errors';
import type { Resolution } from '../../core/phases/2-resolve/resolve';
import { factContextOf } from '../../core/reasons';
import type { ReceiptDiff } from '../../core/receipt-diff';
import type { Baselines, Receipt } from '../../core/result';
import { buildUserView, type UserView } from '../../core/user-view';
import { prepareScenario, type CompileRequest } from '../../core/compile';
import { changeMarks, rowMarks, type MarkSide } from './change-marks';
import { appliedChanges, compileView, type Compiled } from './compile-view';
import type { CorpusIndex } from '../workspace/corpus-index';
import { evidenceAttempts, inspectRecord, resolutionOf, type ViewSource } from './debug-views';
import type {
  AsOfStops,
  ChangeMarks,
  CompileResponse,
  CompileView,
  EvidenceAttempts,
  InspectResponse,
  RowMark,
} from '../protocol';
import { measuredAsync } from '../user-timing';
import { createRememberSoon, type RememberDeps } from './remember-soon';
import type { Workspace } from '../workspace/workspace';
import { wordMessage } from '../../core/messages';

/**
 * From this many records a compile or a change of view is answered without the evidence attempts, which the page
 * asks for once the result is on screen (docs/DECISIONS.md); below it they come with the result in one answer.
 */
export const ATTEMPTS_AFTER_RESULT_FROM = 5_000;

export interface LastCompile extends Compiled {
  readonly views: Map<Audience, DisclosedView>;
  /** The naive and post-filter packets, worked out when a diagnostic view first asks for them. */
  baselines: Baselines | null;
  /** What the user view shows (its document, packet text and id), worked out when a user view first asks for it. */
  userView?: UserView;
  /** What the gates read, worked out again when a record is first inspected. */
  resolution?: Resolution | null;
  /**
   * Per audience: the as-of stops, and the diff from the pinned receipt (each asked for after every compilation, and
   * the diff again by the trace).
   */
  stops?: Map<Audience, AsOfStops>;
  pinnedDiff?: { readonly pinned: Receipt; readonly byAudience: Map<Audience, ReceiptDiff> };
  /** The key of the saved workspace it was compiled from, when its result may be remembered for the next boot. */
  readonly inputsKey: string | null;
  /**
   * The compilation of the same scenario its change marks are against (the one the page showed); kept one compilation
   * longer, so no chain grows.
   */
  before: LastCompile | null;
  /**
   * Per audience: the trace rows new or with another decision than in `before`, worked out when the trace is first
   * asked for.
   */
  rowMarks?: Map<Audience, ReadonlyMap<string, RowMark>>;
}

export interface CompilationsDeps {
  readonly compiler: SqliteCompiler;
  readonly workspace: Workspace;
  readonly corpus: CorpusIndex;
  /** Where the result last shown is kept for the next boot, and the build that keys it; null keeps nothing. */
  readonly remember: RememberDeps['remember'];
  /** Whether this tab writes what it holds: a second tab remembers nothing. */
  readonly saves: boolean;
}

export type Compilations = ReturnType<typeof createCompilations>;

/**
 * The last compilation and its views: what each audience is disclosed, the baselines (for the diagnostic view
 * only: their whole-corpus scores are shaped by records a user may not see), the user view, evidence attempts and
 * the record inspector. Each is worked out once per compilation, when first asked for.
 */
export function createCompilations({ compiler, workspace, corpus, remember, saves }: CompilationsDeps) {
  let last: LastCompile | null = null;
  // The last compilation that succeeded, kept while the next compiles (`last` is cleared first) so that one's marks can
  // compare with it.
  let lastSucceeded: LastCompile | null = null;
  let compilations = 0;

  const disclosed = (compiled: LastCompile, audience: Audience): DisclosedView => {
    let view = compiled.views.get(audience);
    if (!view) {
      view = discloseOutcome(compiled.outcome, audience);
      compiled.views.set(audience, view);
    }
    return view;
  };

  const lastScenario = (): string | null => last?.scenarioKey ?? null;

  const viewSource = (compiled: LastCompile, audience: Audience): ViewSource => ({
    request: compiled.request,
    outcome: compiled.outcome,
    view: disclosed(compiled, audience),
    context: factContextOf(compiled.outcome.receipt.contract),
  });

  const userViewOf = (compiled: LastCompile): UserView =>
    (compiled.userView ??= buildUserView(compiler.sha256, compiled.outcome, disclosed(compiled, 'user')));

  const markSide = (compiled: LastCompile, audience: Audience): MarkSide => {
    const baselines = audience === 'diagnostic' ? compiled.baselines : null;
    const { outcome, request } = compiled;
    return {
      view: disclosed(compiled, audience),
      packets: {
        naive: baselines?.naive.selected ?? null,
        postFilter: baselines?.postFilter.selected ?? null,
        compiled: outcome.status === 'packet' ? outcome.packet.entries.map((entry) => entry.id) : [],
      },
      titleOf: (id) => request.recordSet.byId.get(id)?.record.title ?? id,
    };
  };

  const marksOf = (compiled: LastCompile, audience: Audience): ChangeMarks | null =>
    compiled.before
      ? changeMarks(compiled.before.serial, markSide(compiled.before, audience), markSide(compiled, audience))
      : null;

  const baselinesAtHand = (compiled: LastCompile): boolean =>
    corpus.atHand(compiled.scenarioKey, compiled.request.recordSet.records.length);

  /**
   * `answer`: the view answers the user's compile or change of view, so a large record set's attempts are left for
   * `firstEvidenceAttempts`; every other view (the baselines filled in, the result remembered) carries them.
   */
  const viewOf = (compiled: LastCompile, audience: Audience, { answer = false } = {}): CompileView => {
    if (audience === 'diagnostic' && compiled.baselines === null) {
      if (baselinesAtHand(compiled)) compiled.baselines = compiler.baselines(compiled.request, compiled.outcome);
      else corpus.ensure(lastScenario);
    }
    const baselines = audience === 'diagnostic' ? compiled.baselines : null;
    const progress = corpus.progress();
    const indexing =
      audience === 'diagnostic' && baselines === null
        ? { done: progress?.done ?? 0, total: progress?.total ?? compiled.request.recordSet.records.length }
        : null;
    const source = viewSource(compiled, audience);
    const attempts =
      answer && compiled.request.recordSet.records.length >= ATTEMPTS_AFTER_RESULT_FROM
        ? null
        : evidenceAttempts(source);
    return compileView(
      compiled,
      source,
      audience === 'user' ? userViewOf(compiled) : null,
      baselines,
      indexing,
      attempts,
      marksOf(compiled, audience),
    );
  };

  const prepare = (lateChanges: readonly string[]): Result<CompileRequest, CompileError> =>
    prepareScenario(compiler.sha256, workspace.effective(workspace.currentEntry()), {
      controls: workspace.value().selection.controls,
      lateChanges,
    });

  /**
   * The compilation a new one's marks are against: the one the page shows (`shown`, its serial), which is the last
   * that succeeded or, when the page dropped the answer to a compilation a burst superseded (latest-wins: at most one
   * is answered unseen), the one before that. None when the page shows neither (a result remembered from the last
   * session, another scenario): marks against a compilation not on screen would describe changes nobody saw.
   * Without `shown` (the CLI, the tests) the last one that succeeded.
   */
  const markedAgainst = (shown: number | null | undefined): LastCompile | null => {
    const previous = lastSucceeded?.scenarioKey === workspace.value().selection.scenarioKey ? lastSucceeded : null;
    if (shown === undefined || previous === null || previous.serial === shown) return previous;
    return previous.before?.serial === shown ? previous.before : null;
  };

  // What the page shows is remembered for the next boot once results stop coming.
  const remembering = createRememberSoon({
    sha256: compiler.sha256,
    remember,
    saves,
    workspace,
    lastShown: (audience) => {
      const compiled = last;
      return (
        compiled && {
          inputsKey: compiled.inputsKey,
          receipt: compiled.outcome.receipt,
          view: () => viewOf(compiled, audience),
          disclosed: () => disclosed(compiled, audience),
        }
      );
    },
  });

  // Compiles are answered in the order asked: the compiler runs them one at a time, and nothing below awaits after it.
  const compile = async (audience: Audience, shownCompilation?: number | null): Promise<CompileResponse> => {
    // Forget the last result first: if this compilation throws, no stale receipt, packet or trace can be read or
    // frozen.
    last = null;
    const { selection } = workspace.value();
    const request = prepare(selection.lateChanges);
    if (!request.ok) return { ok: false, error: request.error };
    const outcome = await measuredAsync('cc:compile', () => compiler.compile(request.value));
    if (!outcome.ok) return { ok: false, error: outcome.error };
    compilations += 1;
    const { scenario } = workspace.effective(workspace.currentEntry());
    const before = markedAgainst(shownCompilation);
    // Only the compilation before the last is kept, and only as the one the next marks may be against: no chain.
    if (before) before.before = null;
    const compiled: LastCompile = {
      serial: compilations,
      scenarioKey: selection.scenarioKey,
      appliedChanges: appliedChanges(scenario, request.value),
      changes: scenario,
      request: request.value,
      outcome: outcome.value,
      views: new Map(),
      baselines: null,
      inputsKey: remembering.inputsKey(),
      before,
    };
    // Kept only once its view is built: a throw while disclosing or in the baselines keeps nothing either.
    const view = viewOf(compiled, audience, { answer: true });
    last = compiled;
    lastSucceeded = compiled;
    remembering.soon(audience);
    return { ok: true, view };
  };

  return {
    last: (): LastCompile | null => last,
    /** Forgets every compilation, and any result waiting to be remembered. */
    forget(): void {
      last = null;
      lastSucceeded = null;
      remembering.cancel();
    },
    /**
     * The trace rows of `compiled` new to the view or with another decision than in the compilation before, for
     * `audience`.
     */
    rowMarksOf(compiled: LastCompile, audience: Audience): ReadonlyMap<string, RowMark> {
      compiled.rowMarks ??= new Map();
      let marks = compiled.rowMarks.get(audience);
      if (!marks) {
        marks = compiled.before
          ? rowMarks(disclosed(compiled.before, audience), disclosed(compiled, audience))
          : new Map<string, RowMark>();
        compiled.rowMarks.set(audience, marks);
      }
      return marks;
    },
    disclosed,
    viewSource,
    userViewOf,
    viewOf,
    prepare,
    /**
     * A cancelled load left rows of its files in the record index: the records last compiled take their place again.
     */
    reindexLast(): void {
      if (!last) return;
      compiler.index(last.request.recordSet);
      if (last.baselines === null) corpus.ensure(lastScenario);
    },

    compile,

    async disclose(audience: Audience): Promise<CompileResponse> {
      if (!last) return compile(audience);
      remembering.soon(audience);
      return { ok: true, view: viewOf(last, audience, { answer: true }) };
    },

    /**
     * Resolves with the diagnostic view of compilation `compilation`, baselines included, once the whole-corpus
     * index is built; null if another compilation has replaced it by then. Progress goes to `onProgress`.
     */
    async awaitBaselines(
      compilation: number,
      onProgress: (progress: { done: number; total: number }) => void,
    ): Promise<CompileResponse | null> {
      if (!last || last.serial !== compilation) return null;
      if (!baselinesAtHand(last)) await corpus.complete(lastScenario, onProgress);
      if (!last || last.serial !== compilation) return null;
      remembering.soon('diagnostic');
      return { ok: true, view: viewOf(last, 'diagnostic') };
    },

    firstEvidenceAttempts(compilation: number, audience: Audience): readonly EvidenceAttempts[] | null {
      return last && last.serial === compilation ? evidenceAttempts(viewSource(last, audience)) : null;
    },

    evidenceAttempts(
      compilation: number,
      proposition: string,
      audience: Audience,
      offset: number,
    ): EvidenceAttempts | null {
      if (!last || last.serial !== compilation || !Number.isSafeInteger(offset) || offset < 0) return null;
      return evidenceAttempts(viewSource(last, audience), { proposition, offset })[0] ?? null;
    },

    inspectRecord(id: string, audience: Audience): InspectResponse {
      if (!last) return { ok: false, message: wordMessage('NOTHING_COMPILED_YET') };
      if (last.resolution === undefined) last.resolution = resolutionOf(last.request);
      if (last.resolution === null) return { ok: false, message: wordMessage('NO_RECORD_IN_VIEW', { id }) };
      return inspectRecord(viewSource(last, audience), last.resolution, id);
    },
  };
}
