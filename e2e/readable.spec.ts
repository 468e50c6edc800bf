import { expect, test } from './fixtures';

test.describe('Numbers and codes a first-time analyst can read', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('ranked rows show a rank and a legible score, entries say "tokens", and a legend says what they mean', async ({
    app,
    page,
  }) => {
    await app.goto();
    const ranked = app.traceRow('RUN-0871').locator('.trace-score');
    await expect(ranked).toHaveText(/^#1 \S/);
    const score = ((await ranked.textContent()) ?? '').replace(/^#1 /, '');
    // bm25 over 13 short records is tiny: three decimals printed 0.000 for every row.
    expect(score).not.toMatch(/^-?0\.000$/);
    expect(score).toMatch(/^-?\d(\.\d+)?( × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?$|^-?\d+(\.\d+)?$/);
    await expect(app.traceRow('ADR-0231').locator('.trace-score')).toHaveText('—');
    await expect(app.entry('compiled', 'ADR-0234')).toContainText('30 tokens · required');
    await expect(page.getByTestId('trace-legend')).toContainText('Tokens: declared cost.');
  });

  test('every reason code opens its glossary entry, by mouse or keyboard, and breaks only at underscores', async ({
    app,
    page,
  }) => {
    await app.goto();
    const code = app.traceRow('SEC-0042').getByRole('button', { name: 'EXCLUDE_NOT_AUTHORISED' });
    await expect(code).toHaveText('EXCLUDE_NOT_AUTHORISED');
    const style = await code.evaluate((element) => ({
      wbr: element.querySelectorAll('wbr').length,
      wrap: getComputedStyle(element).overflowWrap,
      breaks: getComputedStyle(element).wordBreak,
    }));
    expect(style).toEqual({ wbr: 2, wrap: 'normal', breaks: 'normal' });
    // Each rendered line of a code in a narrow trace column is whole words of it (the column narrowed here: the
    // layouts give codes room to stay on one line, and a phone's or a user's zoom may not).
    await code.evaluate((element) => {
      const cell = element.closest<HTMLElement>('[role="cell"]');
      if (cell) cell.style.width = cell.style.maxWidth = '7em';
    });
    const lines = await code.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const tops = new Map<number, string>();
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let index = 0; index < text.length; index += 1) {
          const letter = document.createRange();
          letter.setStart(node, index);
          letter.setEnd(node, index + 1);
          const top = Math.round(letter.getBoundingClientRect().top);
          tops.set(top, (tops.get(top) ?? '') + text[index]);
        }
      }
      return [...tops.values()];
    });
    expect(lines.length, 'the code wraps in its narrowed column').toBeGreaterThan(1);
    // Lines concatenate to the code, so a line that ends at an underscore starts the next at a word.
    expect(lines.join('')).toBe('EXCLUDE_NOT_AUTHORISED');
    for (const line of lines.slice(0, -1)) expect(line, lines.join(' | ')).toMatch(/_$/);

    await code.click();
    const glossary = page.getByRole('dialog', { name: 'Glossary' });
    await expect(glossary).toBeVisible();
    await expect(glossary.getByTestId('glossary-EXCLUDE_NOT_AUTHORISED')).toBeFocused();
    await expect(glossary.getByTestId('glossary-EXCLUDE_NOT_AUTHORISED')).toContainText('holds none of the roles');
    await page.keyboard.press('Escape');
    await expect(glossary).toBeHidden();
    await expect(code).toBeFocused();

    await page.getByTestId('audit-strip').getByRole('button', { name: 'Receipt' }).press('Enter');
    await expect(glossary.getByTestId('glossary-receipt')).toBeFocused();
    await glossary.getByRole('button', { name: 'Close glossary' }).click();

    await app.control('Remove required provenance').check();
    await page.getByTestId('fail-closed-code').click();
    await expect(glossary.getByTestId('glossary-REQUIRED_MISSING_PROVENANCE')).toBeFocused();
  });
});
