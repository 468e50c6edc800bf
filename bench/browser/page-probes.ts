import type { Browser, CDPSession, Page, Worker } from '@playwright/test';
import { formatCount } from '../../src/app/components/format';

/** Quiet time after each step, so a task that trails a step is counted in that step's window. */
export const SETTLE_MS = 1_500;
export const WAIT_MS = 10 * 60_000;

/**
 * What the browser benchmark measures the page and its worker with: memory, CPU, long tasks and the worker's own
 * measures.
 */
export interface TargetMemory {
  readonly url: string;
  readonly type: string;
  /**
   * Runtime.getHeapUsage: the JavaScript heap, and (where Chromium reports it) ArrayBuffer backing stores, the wasm
   * memory among them.
   */
  readonly heapUsedBytes: number;
  readonly heapTotalBytes: number;
  readonly backingStorageBytes: number;
  /** Performance.getMetrics' JSHeapUsedSize, for comparison. */
  readonly metricsJsHeapUsedBytes: number;
}

/**
 * Memory of the page and of the compiler worker through the Chrome DevTools Protocol: a browser session
 * attaches to each target (non-flat sessions, so Playwright's CDPSession can carry the messages) and asks it.
 */
export async function memoryOf(cdp: CDPSession): Promise<TargetMemory[]> {
  const { targetInfos } = (await cdp.send('Target.getTargets')) as {
    targetInfos: { targetId: string; type: string; url: string }[];
  };
  const wanted = targetInfos.filter((target) => target.type === 'page' || target.type === 'worker');
  const results: TargetMemory[] = [];
  for (const target of wanted) {
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as {
      sessionId: string;
    };
    let next = 0;
    const ask = (method: string): Promise<Record<string, unknown>> =>
      new Promise((resolve) => {
        const id = ++next;
        const listener = (event: { sessionId?: string; message: string }) => {
          if (event.sessionId !== sessionId) return;
          const message = JSON.parse(event.message) as { id?: number; result?: Record<string, unknown> };
          if (message.id !== id) return;
          cdp.off('Target.receivedMessageFromTarget', listener);
          resolve(message.result ?? {});
        };
        cdp.on('Target.receivedMessageFromTarget', listener);
        void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
      });
    const heap = await ask('Runtime.getHeapUsage');
    await ask('Performance.enable');
    const metrics = (await ask('Performance.getMetrics')).metrics as { name: string; value: number }[] | undefined;
    await cdp.send('Target.detachFromTarget', { sessionId });
    results.push({
      url: target.url,
      type: target.type,
      heapUsedBytes: Number(heap.usedSize ?? 0),
      heapTotalBytes: Number(heap.totalSize ?? 0),
      backingStorageBytes: Number(heap.backingStorageSize ?? 0),
      metricsJsHeapUsedBytes: metrics?.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0,
    });
  }
  return results;
}

/**
 * CPU seconds used so far by every Chromium process (SystemInfo.getProcessInfo): reported beside wall time, since the
 * machine is shared.
 */
export async function cpuSeconds(cdp: CDPSession): Promise<number> {
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { cpuTime: number }[] };
  return processInfo.reduce((sum, process) => sum + process.cpuTime, 0);
}

export const newBrowserSession = (browser: Browser) => browser.newBrowserCDPSession();

export interface LongTask {
  readonly start: number;
  readonly duration: number;
}

export interface Probe {
  readonly longTasks: LongTask[];
  fileChange: number | null;
  lastClick: number | null;
}

export interface WorkerMeasure {
  readonly name: string;
  readonly duration: number;
}

/** Runs in the page before the app: records every long task and when the file input and buttons fired. */
export function installProbes(): void {
  if (typeof document === 'undefined') return;
  const probe: Probe = { longTasks: [], fileChange: null, lastClick: null };
  (window as unknown as { __bench: Probe }).__bench = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ entryTypes: ['longtask'] });
  document.addEventListener(
    'change',
    (event) => {
      if (event.target instanceof HTMLInputElement && event.target.type === 'file')
        probe.fileChange = performance.now();
    },
    true,
  );
  document.addEventListener(
    'click',
    () => {
      probe.lastClick = performance.now();
    },
    true,
  );
}

export const probe = (page: Page) => page.evaluate(() => (window as unknown as { __bench: Probe }).__bench);
export const pageNow = (page: Page) => page.evaluate(() => performance.now());
export const settle = (page: Page) => page.waitForTimeout(SETTLE_MS);

/** The page's clock when the trace count announces every row; polled each frame so the time is the page's own. */
export async function traceShowsAll(page: Page, count: number): Promise<number> {
  const handle = await page.waitForFunction(
    (text) => (document.querySelector('[data-testid="trace-count"]')?.textContent === text ? performance.now() : false),
    `Showing ${formatCount(count)} of ${formatCount(count)} candidates`,
    { polling: 'raf', timeout: WAIT_MS },
  );
  return Number(await handle.jsonValue());
}

export async function receiptChanged(page: Page, before: string | null): Promise<number> {
  const handle = await page.waitForFunction(
    (previous) => {
      const id = document.querySelector('[data-testid="audit-receipt"]')?.getAttribute('title') ?? null;
      return id !== null && id !== previous ? performance.now() : false;
    },
    before,
    { polling: 'raf', timeout: WAIT_MS },
  );
  return Number(await handle.jsonValue());
}

export const workerMeasures = (worker: Worker): Promise<WorkerMeasure[]> =>
  worker.evaluate(() => performance.getEntriesByType('measure').map(({ name, duration }) => ({ name, duration })));

/**
 * The size of the worker's wasm memory (the SQLite heap, where the database lives) each time the worker marked it: at
 * start and after each image save.
 */
export const wasmMemoryMarks = (worker: Worker): Promise<number[]> =>
  worker.evaluate(() =>
    performance.getEntriesByName('cc:wasm-memory').map((mark) => Number((mark as PerformanceMark).detail)),
  );

export const durationsOf = (measures: readonly WorkerMeasure[], name: string, from = 0) =>
  measures
    .slice(from)
    .filter((measure) => measure.name === name)
    .map((measure) => Math.round(measure.duration));

export function tasksIn(tasks: readonly LongTask[], start: number, end: number) {
  const inside = tasks.filter((task) => task.start >= start && task.start < end);
  return {
    count: inside.length,
    longestMs: Math.round(inside.reduce((longest, task) => Math.max(longest, task.duration), 0)),
    totalMs: Math.round(inside.reduce((sum, task) => sum + task.duration, 0)),
    tasks: inside.map((task) => ({ atMs: Math.round(task.start - start), durationMs: Math.round(task.duration) })),
  };
}

export const percentileOf = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * Scrolls the trace from top to bottom with the page (the rows have no scroll box of their own), `step` pixels
 * per step, each step waiting until its first row is on screen.
 */
export function scrollWholeTrace(page: Page, step: number, rowHeight: number) {
  return page.getByRole('rowgroup', { name: 'Trace rows' }).evaluate(
    async (rows, { step, rowHeight, timeout }) => {
      const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      const top = rows.getBoundingClientRect().top + window.scrollY;
      const bottom = () => document.documentElement.scrollHeight - window.innerHeight;
      const firstRowShown = () =>
        rows.querySelector(
          `[aria-rowindex="${Math.floor(Math.max(0, window.scrollY - top) / rowHeight) + 2}"]:not([aria-busy])`,
        ) !== null;
      window.scrollTo(0, top);
      await frame();
      const start = performance.now();
      const stepMs: number[] = [];
      for (;;) {
        const stepStart = performance.now();
        window.scrollTo(0, Math.min(window.scrollY + step, bottom()));
        await frame();
        while (!firstRowShown()) {
          if (performance.now() - stepStart > timeout)
            throw new Error(`rows at ${window.scrollY}px did not arrive within ${timeout} ms`);
          await frame();
        }
        stepMs.push(performance.now() - stepStart);
        if (window.scrollY >= bottom() - 1) break;
      }
      const indexes = [...rows.querySelectorAll('[role="row"]')].map((row) =>
        Number(row.getAttribute('aria-rowindex')),
      );
      return {
        start,
        end: performance.now(),
        stepMs,
        lastRowIndex: indexes.reduce((last, index) => Math.max(last, index), Number.NEGATIVE_INFINITY),
        rowsInDom: indexes.length,
      };
    },
    { step, rowHeight, timeout: 60_000 },
  );
}
