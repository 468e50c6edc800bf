import type { InitialJs } from './initial-js';
import type { TargetMemory } from './page-probes';

interface TimeTarget {
  readonly targetMs: number;
  readonly measuredMs: number;
  readonly met: boolean;
}

/** What the summary table reads of a browser benchmark's result (the JSON written beside it holds more). */
export interface BrowserSummaryInput {
  readonly size: number;
  readonly jsonlBytes: number;
  readonly machine: unknown;
  readonly staged: {
    readonly toPacketMs: number;
    readonly toBaselinesMs: number;
    readonly loadCpuSeconds: number;
    readonly loadWallSeconds: number;
  };
  readonly toggle: { readonly admissionChangeSlowestMs: number; readonly noAdmissionChangeSlowestMs: number };
  readonly reload: {
    readonly workerStoreRecordsMs: number;
    readonly workerSaveImageMs: readonly number[];
    readonly workerImageRestarts: number;
    readonly toSameReceiptMs: number;
    readonly rememberedShown: boolean;
    readonly toCompiledReceiptMs: number;
    readonly cpuSeconds: number;
    readonly recordsFilesRead: number;
    readonly workerRestoreImageMs: readonly number[];
    readonly workerRestoreRecordsMs: readonly number[];
    readonly workerRememberedReadMs: readonly number[];
  };
  readonly memory: {
    readonly afterLoad: readonly TargetMemory[];
    readonly peakBytes: number;
    readonly workerWasmBytesAfterEachSave: readonly number[];
  };
  readonly load: {
    readonly toTraceShownMs: number;
    readonly toLoadResultMs: number;
    readonly worker: {
      readonly parseMs: number;
      readonly readInHelperMs: number | null;
      readonly indexMs: number;
      readonly persistMs: readonly number[];
      readonly compileMs: readonly number[];
    };
  };
  readonly compile: {
    readonly workerCompileMs: readonly number[];
    readonly buttonClickToTraceMs: readonly number[];
    readonly toggles: readonly {
      readonly kind: string;
      readonly on: boolean;
      readonly clickToReceiptMs: number;
      readonly workerCompileMs: number;
      readonly workerPersistMs: number;
    }[];
  };
  readonly scroll: {
    readonly steps: number;
    readonly totalMs: number;
    readonly stepP50Ms: number;
    readonly stepP95Ms: number;
    readonly stepMaxMs: number;
  };
  readonly longTasks: Readonly<
    Record<
      'load' | 'compile' | 'scroll',
      { readonly longestMs: number; readonly count: number; readonly totalMs: number }
    >
  >;
  readonly initialJs: InitialJs;
  readonly targets: Readonly<
    Record<'packet' | 'baselines' | 'reload' | 'toggle' | 'indexWithParse' | 'longestMainThreadTask', TimeTarget>
  > &
    Readonly<Record<'memory' | 'initialJsGzip', { readonly met: boolean }>>;
}

/** The table printed after a browser benchmark: each figure beside its target, and where the JSON was written. */
export function summaryText(result: BrowserSummaryInput, file: string): string {
  const { reload } = result;
  const { worker } = result.load;
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const rows: [string, string, string][] = [
    ['records / JSONL', `${result.size} / ${(result.jsonlBytes / 1024 / 1024).toFixed(1)} MB`, ''],
    [
      'file picked → compiled packet on screen',
      `${result.staged.toPacketMs} ms`,
      `≤ ${result.targets.packet.targetMs} ms: ${met(result.targets.packet.met)}`,
    ],
    [
      'file picked → naive and post-filter complete',
      `${result.staged.toBaselinesMs} ms`,
      `≤ ${result.targets.baselines.targetMs} ms: ${met(result.targets.baselines.met)}`,
    ],
    [
      'load: CPU of all Chromium processes / wall',
      `${result.staged.loadCpuSeconds.toFixed(1)} s / ${result.staged.loadWallSeconds.toFixed(1)} s`,
      '',
    ],
    [
      'reload → same receipt on screen',
      `${reload.toSameReceiptMs} ms (${reload.rememberedShown ? "the last session's result" : 'compiled'}; compiled and checked at ${reload.toCompiledReceiptMs} ms; CPU ${reload.cpuSeconds.toFixed(1)} s, records files read: ${reload.recordsFilesRead}, remembered result read ${reload.workerRememberedReadMs.join(', ')} ms, image read ${reload.workerRestoreImageMs.join(', ')} ms, records restored ${reload.workerRestoreRecordsMs.join(', ')} ms)`,
      `≤ ${result.targets.reload.targetMs} ms: ${met(result.targets.reload.met)}`,
    ],
    [
      'worker wasm memory (start, after each image save)',
      result.memory.workerWasmBytesAfterEachSave.map((bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`).join(', '),
      '',
    ],
    [
      'worker: records stored and image saved (background)',
      `${reload.workerStoreRecordsMs} ms (image saves so far: ${reload.workerSaveImageMs.join(', ')} ms, started again after a commit: ${reload.workerImageRestarts})`,
      '',
    ],
    [
      'toggle click → new receipt (slowest of both kinds)',
      `${result.targets.toggle.measuredMs} ms (admission changes ${result.toggle.admissionChangeSlowestMs}, unchanged ${result.toggle.noAdmissionChangeSlowestMs})`,
      `≤ ${result.targets.toggle.targetMs} ms: ${met(result.targets.toggle.met)}`,
    ],
    [
      'page + worker memory (heap + backing stores, peak)',
      `${(result.memory.peakBytes / 1024 / 1024).toFixed(0)} MB (${result.memory.afterLoad.map((target) => `${target.type} ${((target.heapUsedBytes + target.backingStorageBytes) / 1024 / 1024).toFixed(0)} MB`).join(', ')} after load)`,
      `≤ 1536 MB: ${met(result.targets.memory.met)}`,
    ],
    ['file picked → trace shows all rows', `${result.load.toTraceShownMs} ms`, ''],
    ['file picked → load result (parse, index, save)', `${result.load.toLoadResultMs} ms`, ''],
    [
      'worker parse+validate / index build',
      `${worker.parseMs} / ${worker.indexMs} ms${worker.readInHelperMs === null ? ' (in one pass)' : ` (second half read by the helper in ${worker.readInHelperMs} ms)`}`,
      '',
    ],
    [
      'index build incl. parse (worker)',
      `${worker.parseMs + worker.indexMs} ms`,
      `≤ ${result.targets.indexWithParse.targetMs} ms: ${met(result.targets.indexWithParse.met)}`,
    ],
    ['worker save to IndexedDB', `${result.load.worker.persistMs.join(', ')} ms`, ''],
    [
      'worker compile (load, then button)',
      `${[...result.load.worker.compileMs, ...result.compile.workerCompileMs].join(', ')} ms`,
      '',
    ],
    ['button click → trace refreshed', `${result.compile.buttonClickToTraceMs.join(', ')} ms`, ''],
    ...result.compile.toggles.map((toggle): [string, string, string] => [
      `toggle ${toggle.kind} ${toggle.on ? 'on' : 'off'}: click → new receipt (worker compile, save)`,
      `${toggle.clickToReceiptMs} ms (${toggle.workerCompileMs}, ${toggle.workerPersistMs})`,
      '',
    ]),
    [
      'scroll whole trace',
      `${result.scroll.steps} steps of 200 rows, ${result.scroll.totalMs} ms; step p50 ${result.scroll.stepP50Ms}, p95 ${result.scroll.stepP95Ms}, max ${result.scroll.stepMaxMs} ms`,
      '',
    ],
    ...(['load', 'compile', 'scroll'] as const).map((phase): [string, string, string] => [
      `longest main-thread task: ${phase}`,
      `${result.longTasks[phase].longestMs} ms (${result.longTasks[phase].count} long tasks, ${result.longTasks[phase].totalMs} ms)`,
      `≤ ${result.targets.longestMainThreadTask.targetMs} ms: ${met(result.longTasks[phase].longestMs <= result.targets.longestMainThreadTask.targetMs)}`,
    ]),
    [
      'initial JS gzip',
      `${(result.initialJs.gzipBytes / 1024).toFixed(1)} kB (${result.initialJs.files.map((entry) => entry.file).join(', ')})`,
      `≤ 150 kB: ${met(result.targets.initialJsGzip.met)}`,
    ],
  ];
  return `\n${rows.map(([metric, value, target]) => `${metric.padEnd(58)} ${value}${target ? `   [${target}]` : ''}`).join('\n')}\n\nmachine: ${JSON.stringify(result.machine)}\nwritten: ${file}\n`;
}
