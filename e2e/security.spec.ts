import { expect, fixtureFile, test } from './fixtures';

const REQUIRED_DIRECTIVES: Readonly<Record<string, string>> = {
  'default-src': "'self'",
  'script-src': "'self' 'wasm-unsafe-eval'",
  'worker-src': "'self' blob:",
  'connect-src': "'self'",
  'style-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
};

test('the Content Security Policy meta is the first element of <head> and locks the page down', async ({
  app,
  page,
}) => {
  await app.goto();
  const first = await page.evaluate(() => {
    const element = document.head.firstElementChild;
    return {
      tag: element?.tagName ?? '',
      httpEquiv: element?.getAttribute('http-equiv') ?? '',
      content: element?.getAttribute('content') ?? '',
    };
  });
  expect(first.tag).toBe('META');
  expect(first.httpEquiv).toBe('Content-Security-Policy');
  const directives = new Map(
    first.content
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values.join(' ')]),
  );
  for (const [name, value] of Object.entries(REQUIRED_DIRECTIVES)) expect(directives.get(name), name).toBe(value);
  expect(first.content).not.toMatch(/unsafe-inline|'unsafe-eval'|\*/);
});

test('record text that looks like HTML is shown as text and never runs', async ({ app, page }) => {
  await app.goto();
  await app.dropFiles([fixtureFile('hostile-markup.scenario.json')]);
  await expect(app.scenarioPicker).toHaveValue('loaded:hostile-markup');
  await expect(app.auditOutcome).toHaveText('Packet emitted');

  const entry = app.entry('compiled', 'ADR-0666');
  await expect(entry).toContainText('Markup <img src=x onerror="window.__markupRan=1"> in a title');
  await expect(entry.locator('img')).toHaveCount(0);

  await page.getByText('Packet text').click();
  const packet = page.getByTestId('packet-text');
  await expect(packet).toContainText(
    'Decision text with <script>window.__markupRan=1</script> and <img src=x onerror="window.__markupRan=1"> inside it.',
  );
  await expect(packet.locator('script, img')).toHaveCount(0);

  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(
    await page
      .locator('script')
      .evaluateAll((scripts) => scripts.filter((script) => script.textContent?.includes('__markupRan')).length),
  ).toBe(0);
  expect(await page.evaluate(() => '__markupRan' in window)).toBe(false);
});

interface EvalAttempts {
  /** How each attempt ended: the error's name, or `ran` when nothing was thrown. */
  readonly outcomes: Readonly<Record<string, string>>;
  /** Set by any attempt whose string ran as code. */
  readonly ran: readonly string[];
  readonly violations: readonly string[];
}

test('the page policy reaches the compiler worker: no string becomes code there, and SQLite still compiles its wasm', async ({
  app,
  page,
}) => {
  await app.goto();
  // The default scenario compiled, so SQLite's wasm was compiled inside the worker under the policy.
  await expect(app.auditOutcome).toHaveText('Packet emitted');
  const workers = page.workers();
  const worker = workers[workers.length - 1];
  if (!worker) throw new Error('the compiler worker is not running');
  expect(worker.url()).toMatch(/^blob:/);

  const attempts = await worker.evaluate(
    () =>
      new Promise<EvalAttempts>((resolve) => {
        const scope = self as unknown as { __ran?: string[] } & typeof globalThis;
        scope.__ran = [];
        const violations: string[] = [];
        self.addEventListener('securitypolicyviolation', (event) =>
          violations.push(`${event.effectiveDirective} ${event.blockedURI}`),
        );
        const outcomes: Record<string, string> = {};
        const attempt = (name: string, run: () => unknown) => {
          try {
            run();
            outcomes[name] = 'ran';
          } catch (error) {
            outcomes[name] = error instanceof Error ? error.name : String(error);
          }
        };
        // From a timer callback, so the attempts run as the worker's own code, not inside the debugger's evaluation.
        setTimeout(() => {
          const mark = (name: string) => `self.__ran.push(${JSON.stringify(name)})`;
          attempt('eval', () => (0, eval)(mark('eval')));
          attempt('Function', () => Function(mark('Function'))());
          attempt('AsyncFunction', () => (async () => undefined).constructor(mark('AsyncFunction'))());
          attempt('GeneratorFunction', () => function* () {}.constructor(mark('GeneratorFunction'))().next());
          attempt('AsyncGeneratorFunction', () =>
            async function* () {}.constructor(mark('AsyncGeneratorFunction'))().next(),
          );
          attempt('setTimeout', () => setTimeout(mark('setTimeout'), 0));
          attempt('setInterval', () => {
            const id = setInterval(mark('setInterval'), 0);
            setTimeout(() => clearInterval(id), 100);
          });
          import(`data:text/javascript,${mark('import')}`).then(
            () => (outcomes.import = 'ran'),
            (error: unknown) => (outcomes.import = error instanceof Error ? error.name : String(error)),
          );
          setTimeout(() => resolve({ outcomes, ran: scope.__ran ?? [], violations }), 500);
        }, 0);
      }),
  );

  expect(attempts.ran).toEqual([]);
  expect(attempts.outcomes).toEqual({
    eval: 'EvalError',
    Function: 'EvalError',
    AsyncFunction: 'EvalError',
    GeneratorFunction: 'EvalError',
    AsyncGeneratorFunction: 'EvalError',
    // String timers throw nothing: the browser refuses to run them and reports a violation.
    setTimeout: 'ran',
    setInterval: 'ran',
    import: 'TypeError',
  });
  expect(attempts.violations.every((violation) => violation.startsWith('script-src'))).toBe(true);
  expect(attempts.violations.length).toBeGreaterThanOrEqual(8);

  // The worker's own work raises no violation: a toggle recompiles and the packet comes back.
  await worker.evaluate(() => {
    const scope = self as unknown as { __violations: string[] } & typeof globalThis;
    scope.__violations = [];
    self.addEventListener('securitypolicyviolation', (event) =>
      scope.__violations.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
  });
  await app.control('Remove required provenance').click();
  await expect(app.failClosed).toBeVisible();
  await app.control('Remove required provenance').click();
  await expect(app.auditOutcome).toHaveText('Packet emitted');
  expect(await worker.evaluate(() => (self as unknown as { __violations: string[] }).__violations)).toEqual([]);
});
