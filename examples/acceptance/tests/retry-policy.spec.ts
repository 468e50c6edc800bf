import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ContextCompilerPage } from 'context-compiler/playwright';

test('with the superseded decision switched on, naive top-k cites it and the compiled packet does not', async ({
  page,
}) => {
  const app = new ContextCompilerPage(page);
  await app.goto();
  expect(await app.packetIds('compiled')).toContain('ADR-0234');

  await app.setControl('Superseded decision', true);
  expect(await app.packetIds('naive')).toContain('ADR-0198');
  expect(await app.packetIds('compiled')).not.toContain('ADR-0198');
  expect(await app.record('ADR-0198')).toMatchObject({ decision: 'excluded', code: 'EXCLUDE_SUPERSEDED' });

  expect((await app.runDrill()).action).toBe('recompile_required');
});

test("the workshop's own suite passes in the app's Tests view", async ({ page }) => {
  const app = new ContextCompilerPage(page);
  await app.goto();
  const results = await app.openSuites([fileURLToPath(new URL('../suites/workshop.expect.json', import.meta.url))]);
  expect(results.length).toBeGreaterThan(0);
  expect(results.filter((result) => !result.passed)).toEqual([]);
});
