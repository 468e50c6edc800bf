import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Locator, Page } from '@playwright/test';

// Only types come from @playwright/test: a user's project brings its own copy, and a second copy loaded at run
// time makes Playwright refuse to start. So every wait here is a locator wait, never `expect`.

export type PacketKind = 'naive' | 'post-filter' | 'compiled';
export type WorkspaceView = 'Debugger' | 'Fire drill' | 'Evaluation' | 'Tests';
export type Disclosure = 'Diagnostic view' | 'User view';
export type DrillAction = 'continue' | 'recompile_required' | 'block';

/** A file as a browser would receive it from the file picker; or a path on disk. */
export type FileInput = string | { readonly name: string; readonly mimeType?: string; readonly text: string };

/** One row of the trace: what the compiler decided for a record and why. */
export interface RecordDecision {
  readonly id: string;
  /** `selected` or `excluded`, without the mark the table shows beside it. */
  readonly decision: string;
  /** The reason code, for example `SELECTED_REQUIRED` or `EXCLUDE_SUPERSEDED`. */
  readonly code: string;
  /** The boundary fact the reason rests on. */
  readonly fact: string;
}

/** One expectation of a failing case: where it is written in the suite, what it expected and what happened. */
export interface TestMismatch {
  /** `line 12: cases[1].expect.records.NOTE-0311.code`. */
  readonly place: string;
  readonly subject: string;
  readonly expected: string;
  readonly actual: string;
}

/** One case (or one row of a case's matrix) of a suite open in the Tests panel, run on the inputs on screen. */
export interface TestCaseResult {
  readonly suite: string;
  readonly name: string;
  readonly passed: boolean;
  readonly mismatches: readonly TestMismatch[];
}

/** What "Attempt to continue" said about the frozen receipt. */
export interface DrillVerdict {
  readonly action: DrillAction;
  readonly headline: string;
  readonly code: string;
}

/** The drill's headlines as the Fire drill view words them (a unit test holds them equal to the app's). */
export const DRILL_HEADLINES: Readonly<Record<DrillAction, string>> = {
  continue: 'CURRENT — MAY CONTINUE',
  recompile_required: 'STALE — RECOMPILE REQUIRED',
  block: 'BLOCKED — DO NOT CONTINUE',
};

const BUSY_OUTCOME = /Compiling…|checking…/;
const DEFAULT_TIMEOUT = 20_000;

export interface ContextCompilerPageOptions {
  /**
   * Where the app is served, a sub-path included (`http://127.0.0.1:4173/some-repo/`). Without it the page
   * opens `./` against the Playwright project's `baseURL`, which must then end in a slash.
   */
  readonly baseURL?: string;
  /** How long each wait may take, in milliseconds (a large workspace needs longer). Default 20,000. */
  readonly timeout?: number;
}

/**
 * The Context Compiler app as an acceptance test drives it: by the accessible names and test ids that
 * docs/PAGE-OBJECT.md lists, which the repository's own browser tests use too.
 */
export class ContextCompilerPage {
  readonly timeout: number;
  private readonly baseURL: string | undefined;
  // The audit strip, the scenario picker, the compiled column's buttons, the load report, the drill and the trace.
  readonly auditSelected: Locator;
  readonly auditBudget: Locator;
  readonly auditOutcome: Locator;
  readonly auditReceipt: Locator;
  readonly scenarioPicker: Locator;
  readonly compileButton: Locator;
  readonly copyPacketButton: Locator;
  readonly failClosed: Locator;
  readonly loadErrors: Locator;
  readonly loadResult: Locator;
  readonly drill: Locator;
  readonly traceCount: Locator;
  readonly traceSearch: Locator;
  /** The Tests panel (the Tests view), where suites are opened and their cases read. */
  readonly tests: Locator;

  constructor(
    readonly page: Page,
    options: ContextCompilerPageOptions = {},
  ) {
    this.baseURL =
      options.baseURL === undefined
        ? undefined
        : options.baseURL.endsWith('/')
          ? options.baseURL
          : `${options.baseURL}/`;
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT;
    // Locators are lazy: each finds its element when it is used, so they are made once, here.
    this.auditSelected = page.getByTestId('audit-selected');
    this.auditBudget = page.getByTestId('audit-budget');
    this.auditOutcome = page.getByTestId('audit-outcome');
    this.auditReceipt = page.getByTestId('audit-receipt');
    this.scenarioPicker = page.getByTestId('scenario-picker');
    this.compileButton = page.getByRole('button', { name: 'Compile context' });
    this.copyPacketButton = page.getByRole('button', { name: 'Copy packet' });
    this.failClosed = page.getByTestId('fail-closed');
    this.loadErrors = page.getByTestId('load-errors');
    this.loadResult = page.getByTestId('load-result');
    this.drill = page.getByRole('region', { name: 'Fire drill' });
    this.traceCount = page.getByTestId('trace-count');
    this.traceSearch = page.getByRole('searchbox', { name: 'Search trace' });
    this.tests = page.getByTestId('tests-panel');
  }

  /** Opens the app (a path relative to its base may follow, for example `#share=…`) and waits for the first result. */
  async goto(path = '', timeout = this.timeout): Promise<void> {
    const target = this.baseURL === undefined ? `./${path}` : new URL(path, this.baseURL).href;
    await this.page.goto(target);
    await this.waitForCompiled(timeout);
  }

  /** Every change compiles; a result is on screen once the audit strip names an outcome no compilation is replacing. */
  async waitForCompiled(timeout = this.timeout): Promise<void> {
    const settled = this.auditOutcome.filter({ hasNotText: BUSY_OUTCOME }).or(this.page.getByTestId('compile-error'));
    await settled.first().waitFor({ timeout });
    const fatal = this.page.getByTestId('fatal-error');
    if ((await fatal.count()) > 0) throw new Error(`The app stopped: ${(await fatal.first().textContent()) ?? ''}`);
  }

  column(kind: PacketKind): Locator {
    return this.page.getByTestId(`column-${kind}`);
  }

  tokens(kind: PacketKind): Locator {
    return this.page.getByTestId(`tokens-${kind}`);
  }

  entry(kind: PacketKind, id: string): Locator {
    return this.page.getByTestId(`entry-${kind}-${id}`);
  }

  entries(kind: PacketKind): Locator {
    return this.column(kind).locator(`[data-testid^="entry-${kind}-"]`);
  }

  /** A poison control's switch, by its label ("Remove required provenance"). */
  control(label: string): Locator {
    return this.page.getByRole('switch', { name: label });
  }

  traceRow(id: string): Locator {
    return this.page.getByTestId(`trace-row-${id}`);
  }

  /** Picks a scenario by its id (`retry-policy`, or `loaded:<id>` for a loaded one) and waits for its result. */
  async selectScenario(id: string): Promise<void> {
    await this.scenarioPicker.selectOption(id);
    await this.waitForCompiled();
  }

  /** Switches to one of the top-level views. */
  async openWorkspace(name: WorkspaceView): Promise<void> {
    const views = this.page.getByRole('navigation', { name: 'Workspace' });
    await views.getByRole('button', { name, exact: true }).click();
    await views.getByRole('button', { name, exact: true, pressed: true }).waitFor({ timeout: this.timeout });
  }

  /** Shows the trace as the diagnostic view (every record) or the user view (what an end user may see). */
  async setDisclosure(view: Disclosure): Promise<void> {
    await this.page.getByRole('radio', { name: view }).check();
    await this.waitForCompiled();
  }

  /** Turns a poison control on or off, then waits for the result it compiles to. */
  async setControl(label: string, on: boolean): Promise<void> {
    await this.control(label).setChecked(on);
    await this.waitForCompiled();
  }

  /** Picks files (paths, or names with their text) through the "Open files…" button's input, and returns at once. */
  async openFiles(files: readonly FileInput[]): Promise<void> {
    await this.page
      .getByRole('button', { name: 'Open files…' })
      .and(this.page.locator(':enabled'))
      .waitFor({ timeout: this.timeout });
    await this.page.getByTestId('file-input').setInputFiles(files.map(filePayload));
  }

  /** Opens files as `openFiles` does, then waits for what the app reports and, when they loaded, for their result. */
  async loadFiles(files: readonly FileInput[]): Promise<{ readonly ok: boolean; readonly message: string }> {
    await this.openFiles(files);
    const report = this.loadResult.or(this.loadErrors).first();
    await report.waitFor({ timeout: this.timeout });
    const ok = (await this.loadErrors.count()) === 0;
    if (ok) await this.waitForCompiled();
    return { ok, message: ((await report.textContent()) ?? '').trim() };
  }

  /** Drops files on the page the way a browser does: a real `drop` event carrying a DataTransfer built in the page. */
  async dropFiles(files: readonly FileInput[]): Promise<void> {
    const payloads = files
      .map(filePayload)
      .map((file) => ({ name: file.name, mimeType: file.mimeType, text: file.buffer.toString('utf8') }));
    const dataTransfer = await this.page.evaluateHandle((items) => {
      const transfer = new DataTransfer();
      for (const file of items) transfer.items.add(new File([file.text], file.name, { type: file.mimeType }));
      return transfer;
    }, payloads);
    const zone = this.page.getByTestId('drop-zone');
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await zone.dispatchEvent('dragover', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });
    await dataTransfer.dispose();
  }

  /** The ids in a packet column, in packet order; none when the compiler failed closed. */
  async packetIds(kind: PacketKind): Promise<string[]> {
    await this.waitForCompiled();
    const prefix = `entry-${kind}-`;
    const ids = await this.entries(kind).evaluateAll((elements) =>
      elements.map((element) => element.getAttribute('data-testid') ?? ''),
    );
    return ids.map((id) => id.slice(prefix.length));
  }

  /**
   * The full receipt id of the result on screen (the strip shows 12 hex digits and keeps the whole id as its title).
   */
  async receiptId(): Promise<string> {
    await this.waitForCompiled();
    const id = (await this.auditReceipt.getAttribute('title')) ?? '';
    if (!/^[0-9a-f]{64}$/.test(id))
      throw new Error(`No receipt id on screen (the audit strip's receipt reads "${id}")`);
    return id;
  }

  /** A record's decision, reason code and fact, found through the trace search (which is put back as it was). */
  async record(id: string): Promise<RecordDecision> {
    await this.waitForCompiled();
    const search = this.traceSearch;
    const before = await search.inputValue();
    await search.fill(id);
    const row = this.traceRow(id);
    await row.waitFor({ timeout: this.timeout });
    const cells = await row.getByRole('cell').allTextContents();
    await search.fill(before);
    return decisionOf(cells);
  }

  /**
   * Reads every trace row. The table is virtualised and scrolls with the page, so rows are gathered while
   * the page is scrolled a screen at a time from the first row until as many rows as the count announces have been
   * seen.
   */
  async readTrace(): Promise<RecordDecision[]> {
    await this.waitForCompiled();
    // The count is written with thousands separators ("Showing 12,000 of 100,000").
    const shown = Number(
      ((/Showing ([\d,]+) of/.exec((await this.traceCount.textContent()) ?? '') ?? [])[1] ?? '0').replaceAll(',', ''),
    );
    const scroller = this.page.getByRole('rowgroup', { name: 'Trace rows' });
    const rows = new Map<string, RecordDecision>();
    if (shown === 0) return [];
    await scroller.evaluate((element) =>
      window.scrollTo({ top: element.getBoundingClientRect().top + window.scrollY }),
    );
    await scroller.getByRole('row').first().waitFor({ timeout: this.timeout });
    for (let screen = 0; rows.size < shown && screen <= shown; screen += 1) {
      const visible = await scroller.getByRole('row').evaluateAll((elements) =>
        elements.map((row) => {
          return [...row.querySelectorAll('[role="cell"]')].map((cell) => cell.textContent ?? '');
        }),
      );
      for (const cells of visible) rows.set(cells[0] ?? '', decisionOf(cells));
      if (rows.size >= shown) break;
      const lastIndex = await scroller.getByRole('row').last().getAttribute('aria-rowindex');
      await this.page.evaluate(() => window.scrollBy({ top: window.innerHeight }));
      // Wait for the virtualiser to render the rows beyond the last one already read.
      await scroller
        .locator(`[aria-rowindex="${Number(lastIndex) + 1}"]`)
        .waitFor({ state: 'attached', timeout: this.timeout });
    }
    return [...rows.values()];
  }

  /** "Reset to built-in scenarios", confirmed in its dialog. */
  async resetWorkspace(): Promise<void> {
    await this.page.getByRole('button', { name: 'Reset to built-in scenarios' }).click();
    const dialog = this.page.getByRole('alertdialog', { name: 'Reset to the built-in scenarios?' });
    await dialog.getByRole('button', { name: 'Reset workspace' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: this.timeout });
    await this.waitForCompiled();
  }

  /** Fire drill, step 1: freezes the receipt on screen; returns the id shown beside the button. */
  async freezeReceipt(): Promise<string> {
    await this.openWorkspace('Fire drill');
    await this.drill.getByRole('button', { name: 'Freeze receipt' }).click();
    const frozen = this.drill.getByTestId('drill-frozen').filter({ hasText: /^Frozen/ });
    await frozen.waitFor({ timeout: this.timeout });
    return ((await frozen.textContent()) ?? '').replace(/^Frozen: /, '');
  }

  /** Fire drill, step 2: declares a late change (by its label; the first one when none is named). */
  async injectLateChange(label?: string): Promise<void> {
    if (label !== undefined) await this.drill.getByRole('combobox', { name: 'Late change' }).selectOption({ label });
    await this.drill.getByRole('button', { name: 'Inject late change' }).click();
    await this.drill.getByTestId('drill-declared').waitFor({ timeout: this.timeout });
  }

  /** Fire drill, step 3: tries to continue on the frozen receipt and reads the verdict. */
  async attemptToContinue(): Promise<DrillVerdict> {
    await this.drill.getByRole('button', { name: 'Attempt to continue' }).click();
    return this.settledVerdict();
  }

  /** The verdict the drill shows now. */
  async drillVerdict(): Promise<DrillVerdict> {
    const headline = (
      (await this.drill.getByTestId('drill-headline').textContent({ timeout: this.timeout })) ?? ''
    ).trim();
    const code = ((await this.drill.getByTestId('drill-code').textContent({ timeout: this.timeout })) ?? '').trim();
    const action = (Object.keys(DRILL_HEADLINES) as DrillAction[]).find((key) => DRILL_HEADLINES[key] === headline);
    if (action === undefined) throw new Error(`The drill shows no verdict the page object knows: "${headline}"`);
    return { action, headline, code };
  }

  /** Fire drill, step 4: recompiles with the late change; returns the verdict on the new receipt. */
  async recompileAfterDrill(): Promise<DrillVerdict> {
    await this.drill.getByRole('button', { name: 'Recompile current context' }).click();
    const verdict = await this.settledVerdict();
    await this.waitForCompiled();
    return verdict;
  }

  /** The drill marks its buttons unavailable from the click until its verdict is in (the click sets that at once). */
  private async settledVerdict(): Promise<DrillVerdict> {
    await this.drill
      .getByRole('button', { name: 'Attempt to continue' })
      .and(this.page.locator(':not([aria-disabled="true"])'))
      .waitFor({ timeout: this.timeout });
    await this.drill.getByTestId('drill-verdict').waitFor({ timeout: this.timeout });
    return this.drillVerdict();
  }

  /** The whole drill: freeze, declare a late change, attempt to continue; returns the verdict. */
  async runDrill(lateChange?: string): Promise<DrillVerdict> {
    await this.freezeReceipt();
    await this.injectLateChange(lateChange);
    return this.attemptToContinue();
  }

  /** A case in the Tests panel, by its name (`name`, or `name [controls a, b]` for a row of its matrix). */
  testCase(name: string): Locator {
    return this.tests
      .getByTestId('test-case')
      .filter({ has: this.page.getByTestId('test-name').getByText(name, { exact: true }) });
  }

  /**
   * Opens expectation suites (paths, or names with their text) in the Tests panel and returns their cases once they
   * have run.
   */
  async openSuites(files: readonly FileInput[]): Promise<TestCaseResult[]> {
    await this.openWorkspace('Tests');
    await this.tests.getByTestId('tests-open').setInputFiles(files.map(filePayload));
    const names = files.map((file) => filePayload(file).name);
    const opened = this.tests.getByTestId('tests-refusal');
    for (const name of names)
      await this.tests
        .getByTestId('test-suite')
        .filter({ hasText: name })
        .or(opened)
        .first()
        .waitFor({ timeout: this.timeout });
    if ((await opened.count()) > 0)
      throw new Error(`A suite was refused: ${(await opened.first().textContent()) ?? ''}`);
    return this.testResults();
  }

  /**
   * Opens the Tests view and reads every case of every open suite, once the suites have run on the inputs on screen:
   * after a control, file or contract change they run again when it has compiled, and the panel is busy until they
   * have.
   */
  async testResults(): Promise<TestCaseResult[]> {
    await this.waitForCompiled();
    await this.openWorkspace('Tests');
    await this.tests.and(this.page.locator('[aria-busy="false"]')).waitFor({ timeout: this.timeout });
    return this.tests.getByTestId('test-suite').evaluateAll((suites) =>
      suites.flatMap((suite) => {
        const text = (element: Element | null) => (element?.textContent ?? '').trim();
        const within = (element: Element, id: string) => element.querySelector(`[data-testid="${id}"]`);
        return [...suite.querySelectorAll('[data-testid="test-case"]')].map((entry) => ({
          suite: text(within(suite, 'test-suite-name')),
          name: text(within(entry, 'test-name')),
          passed: entry.getAttribute('data-passed') === 'true',
          mismatches: [...entry.querySelectorAll('[data-testid="test-mismatch"]')].map((mismatch) => ({
            place: text(within(mismatch, 'test-place')),
            subject: text(within(mismatch, 'test-subject')),
            expected: text(within(mismatch, 'test-expected')),
            actual: text(within(mismatch, 'test-actual')),
          })),
        }));
      }),
    );
  }
}

/** A trace row's cells: id, decision (after its ✓ or ✗, before any ◆ badge of what changed), reason code, fact. */
function decisionOf(cells: readonly string[]): RecordDecision {
  const decision =
    (cells[1] ?? '')
      .replace(/^[✓✗]\s*/, '')
      .split('◆')[0]
      ?.trim() ?? '';
  return { id: cells[0] ?? '', decision, code: cells[2] ?? '', fact: cells[3] ?? '' };
}

/** A file typed by its extension, as a browser would type it. */
function filePayload(file: FileInput): { name: string; mimeType: string; buffer: Buffer } {
  const name = typeof file === 'string' ? basename(file) : file.name;
  const mimeType =
    (typeof file === 'string' ? undefined : file.mimeType) ??
    (name.endsWith('.jsonl') ? 'application/jsonl' : 'application/json');
  return { name, mimeType, buffer: typeof file === 'string' ? readFileSync(file) : Buffer.from(file.text, 'utf8') };
}
