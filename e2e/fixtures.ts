import { readFileSync } from 'node:fs';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { E2E_PORT } from '../playwright.config';

/** The origin `playwright.config.ts` serves the built app from; nothing else may be contacted. */
export const APP_ORIGIN = `http://127.0.0.1:${E2E_PORT}`;

export type ColumnKind = 'naive' | 'post-filter' | 'compiled';

/** A file as the page would receive it from a drop or a file picker. */
export interface FilePayload {
  readonly name: string;
  readonly mimeType: string;
  readonly text: string;
}

/** A file from `e2e/fixtures-data/`, typed by its extension as a browser would. */
export function fixtureFile(name: string): FilePayload {
  const text = readFileSync(new URL(`./fixtures-data/${name}`, import.meta.url), 'utf8');
  return { name, mimeType: name.endsWith('.jsonl') ? 'application/jsonl' : 'application/json', text };
}

export interface TraceRowText {
  readonly id: string;
  readonly decision: string;
  readonly code: string;
  readonly fact: string;
}

/** The app as the acceptance specs see it: accessible names and test ids from docs/TESTING.md. */
export class AppPage {
  constructor(readonly page: Page) {}

  /** `timeout` for a page that must read and index a large workspace first. */
  async goto(timeout?: number): Promise<void> {
    await this.page.goto('./');
    await this.waitForCompiled(timeout);
  }

  /** Every load compiles; a result is on screen once the audit strip names an outcome and no compilation is replacing it. */
  async waitForCompiled(timeout?: number): Promise<void> {
    await expect(this.page.getByTestId('audit-outcome').or(this.page.getByTestId('compile-error'))).toBeVisible({ timeout });
    await expect(this.page.getByTestId('audit-outcome')).not.toHaveText(/Compiling…|checking…/, { timeout });
    await expect(this.page.getByTestId('fatal-error')).toHaveCount(0);
  }

  get auditSelected(): Locator {
    return this.page.getByTestId('audit-selected');
  }

  get auditBudget(): Locator {
    return this.page.getByTestId('audit-budget');
  }

  get auditOutcome(): Locator {
    return this.page.getByTestId('audit-outcome');
  }

  get auditReceipt(): Locator {
    return this.page.getByTestId('audit-receipt');
  }

  get scenarioPicker(): Locator {
    return this.page.getByTestId('scenario-picker');
  }

  get compileButton(): Locator {
    return this.page.getByRole('button', { name: 'Compile context' });
  }

  get copyPacketButton(): Locator {
    return this.page.getByRole('button', { name: 'Copy packet' });
  }

  get failClosed(): Locator {
    return this.page.getByTestId('fail-closed');
  }

  get loadErrors(): Locator {
    return this.page.getByTestId('load-errors');
  }

  get loadResult(): Locator {
    return this.page.getByTestId('load-result');
  }

  get drill(): Locator {
    return this.page.getByRole('region', { name: 'Fire drill' });
  }

  /** The top-level views: `Debugger`, `Fire drill`, `Evaluation`. */
  async openWorkspace(name: 'Debugger' | 'Fire drill' | 'Evaluation'): Promise<void> {
    const button = this.page.getByRole('navigation', { name: 'Workspace' }).getByRole('button', { name, exact: true });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  }

  get traceCount(): Locator {
    return this.page.getByTestId('trace-count');
  }

  column(kind: ColumnKind): Locator {
    return this.page.getByTestId(`column-${kind}`);
  }

  tokens(kind: ColumnKind): Locator {
    return this.page.getByTestId(`tokens-${kind}`);
  }

  entry(kind: ColumnKind, id: string): Locator {
    return this.page.getByTestId(`entry-${kind}-${id}`);
  }

  entries(kind: ColumnKind): Locator {
    return this.column(kind).locator(`[data-testid^="entry-${kind}-"]`);
  }

  control(label: string): Locator {
    return this.page.getByRole('switch', { name: label });
  }

  traceRow(id: string): Locator {
    return this.page.getByTestId(`trace-row-${id}`);
  }

  /** The receipt id in full: the strip shows 12 hex digits and keeps the whole id as its title. */
  /** The receipt of the result on screen, once no compilation is replacing it (until then it is outdated). */
  async receiptId(): Promise<string> {
    await expect(this.page.getByTestId('audit-outcome')).not.toHaveText(/Compiling…|checking…/);
    const id = await this.auditReceipt.getAttribute('title');
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    return id ?? '';
  }

  /**
   * Reads every trace row. The table is virtualised, so rows are gathered while the row group is
   * scrolled a screen at a time until as many rows as the count announces have been seen.
   */
  async readTrace(): Promise<TraceRowText[]> {
    const shown = Number((/Showing (\d+) of/.exec((await this.traceCount.textContent()) ?? '') ?? [])[1]);
    expect(shown).toBeGreaterThan(0);
    const scroller = this.page.getByRole('rowgroup', { name: 'Trace rows' });
    const rows = new Map<string, TraceRowText>();
    await scroller.evaluate((element) => element.scrollTo({ top: 0 }));
    await expect(scroller.getByRole('row').first()).toBeVisible();
    for (let screen = 0; rows.size < shown && screen <= shown; screen += 1) {
      const visible = await scroller.getByRole('row').evaluateAll((elements) =>
        elements.map((row) => {
          const cells = [...row.querySelectorAll('[role="cell"]')].map((cell) => cell.textContent ?? '');
          return { id: cells[0] ?? '', decision: cells[1] ?? '', code: cells[2] ?? '', fact: cells[3] ?? '' };
        }),
      );
      for (const row of visible) rows.set(row.id, row);
      if (rows.size >= shown) break;
      const lastIndex = await scroller.getByRole('row').last().getAttribute('aria-rowindex');
      await scroller.evaluate((element) => element.scrollBy({ top: element.clientHeight }));
      // Wait for the virtualiser to render the rows beyond the last one already read.
      await expect(scroller.locator(`[aria-rowindex="${Number(lastIndex) + 1}"]`)).toBeAttached();
    }
    return [...rows.values()];
  }

  /** Drops files on the page the way a browser does: a real `drop` event carrying a DataTransfer built in the page. */
  async dropFiles(files: readonly FilePayload[]): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle((payloads) => {
      const transfer = new DataTransfer();
      for (const file of payloads) transfer.items.add(new File([file.text], file.name, { type: file.mimeType }));
      return transfer;
    }, files);
    const zone = this.page.getByTestId('drop-zone');
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await zone.dispatchEvent('dragover', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });
    await dataTransfer.dispose();
  }

  /** "Reset to built-in scenarios", confirmed in its dialog. */
  async resetWorkspace(): Promise<void> {
    await this.page.getByRole('button', { name: 'Reset to built-in scenarios' }).click();
    const dialog = this.page.getByRole('alertdialog', { name: 'Reset to the built-in scenarios?' });
    await dialog.getByRole('button', { name: 'Reset workspace' }).click();
    await expect(dialog).toBeHidden();
    await this.waitForCompiled();
  }

  /** Picks files through the "Open files…" button's input. */
  async openFiles(files: readonly FilePayload[]): Promise<void> {
    await expect(this.page.getByRole('button', { name: 'Open files…' })).toBeEnabled();
    await this.page.getByTestId('file-input').setInputFiles(files.map((file) => ({ name: file.name, mimeType: file.mimeType, buffer: Buffer.from(file.text, 'utf8') })));
  }
}

interface GuardOptions {
  /** Origins a test may contact; a spec that serves the app elsewhere overrides it. */
  allowedOrigins: readonly string[];
}

interface Fixtures {
  offOriginGuard: void;
  app: AppPage;
}

const CSP_CONSOLE = /content security policy/i;

/**
 * Every test fails if the page contacts another origin, reports a CSP violation (DOM event or
 * console message) or throws an uncaught error: an offline, CSP-locked app must do none of these.
 */
export const test = base.extend<Fixtures & GuardOptions>({
  allowedOrigins: [[APP_ORIGIN], { option: true }],
  offOriginGuard: [
    async ({ context, allowedOrigins }, use) => {
      const problems: string[] = [];
      context.on('request', (request) => {
        const url = request.url();
        // data: URLs never touch the network; blob: URLs carry the origin that made them.
        if (url.startsWith('data:')) return;
        if (!allowedOrigins.includes(new URL(url).origin)) problems.push(`request left the origin: ${request.method()} ${url}`);
      });
      context.on('console', (message) => {
        if (CSP_CONSOLE.test(message.text())) problems.push(`console: ${message.text()}`);
      });
      context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`));
      await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
        problems.push(`securitypolicyviolation: ${text}`);
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
          report(`${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
        });
      });
      await use();
      expect(problems, 'off-origin requests, CSP violations and page errors').toEqual([]);
    },
    { auto: true },
  ],
  app: async ({ page }, use) => {
    await use(new AppPage(page));
  },
});

export { expect };
