import { expect, fixtureFile, test } from './fixtures';

const REQUIRED_DIRECTIVES: Readonly<Record<string, string>> = {
  'default-src': "'self'",
  'script-src': "'self' 'wasm-unsafe-eval'",
  'worker-src': "'self'",
  'connect-src': "'self'",
  'style-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
};

test('the Content Security Policy meta is the first element of <head> and locks the page down', async ({ app, page }) => {
  await app.goto();
  const first = await page.evaluate(() => {
    const element = document.head.firstElementChild;
    return { tag: element?.tagName ?? '', httpEquiv: element?.getAttribute('http-equiv') ?? '', content: element?.getAttribute('content') ?? '' };
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
  await expect(packet).toContainText('Decision text with <script>window.__markupRan=1</script> and <img src=x onerror="window.__markupRan=1"> inside it.');
  await expect(packet.locator('script, img')).toHaveCount(0);

  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.locator('script').evaluateAll((scripts) => scripts.filter((script) => script.textContent?.includes('__markupRan')).length)).toBe(0);
  expect(await page.evaluate(() => '__markupRan' in window)).toBe(false);
});
