import { readFileSync } from 'node:fs';
import { scenarioSchema } from '../src/core/format/scenario';
import { expect, test } from './fixtures';

test.describe('Editing records in place', () => {
  test('a field edited in the form changes the compile, is named when invalid, and an undo restores the receipt', async ({
    app,
    page,
  }) => {
    await app.goto();
    const before = await app.receiptId();
    const packet = await app.packetIds('compiled');
    const id = packet[packet.length - 1] ?? '';
    const editor = page.getByTestId('record-editor');
    // Opened from the inspector, as any record on screen can be.
    await app
      .column('compiled')
      .getByRole('button', { name: `Inspect ${id}` })
      .click();
    await page.getByTestId('record-inspector').getByRole('button', { name: 'Edit this record' }).click();
    await expect(page.getByTestId('record-inspector')).toBeHidden();
    await expect(editor.getByRole('heading', { name: 'Edit a record' })).toBeFocused();
    await expect(editor.getByLabel('Record id')).toHaveValue(id);
    const form = editor.getByRole('form', { name: `Edit ${id}` });

    await form.getByRole('textbox', { name: 'Tokens' }).fill('lots');
    await form.getByRole('button', { name: 'Apply edit' }).click();
    await expect(editor.getByTestId('record-edit-issues')).toContainText('tokens: ');
    await expect(form.getByRole('textbox', { name: 'Tokens' })).toHaveAttribute('aria-invalid', 'true');
    expect(await app.receiptId()).toBe(before);

    await form.getByRole('textbox', { name: 'Tokens' }).fill('1');
    await form.getByRole('combobox', { name: 'Lifecycle' }).selectOption('retired');
    await form.getByRole('button', { name: 'Apply edit' }).click();
    await expect(editor.getByTestId('record-edit-status')).toContainText(
      `Edited ${id} (revision 1). Revision 1 of the records is in force.`,
    );
    await app.waitForCompiled();
    expect(await app.packetIds('compiled')).not.toContain(id);
    expect(await app.receiptId()).not.toBe(before);

    await editor.getByRole('button', { name: 'Undo edit' }).click();
    await expect(editor.getByTestId('record-edit-status')).toHaveText('Undone: back to revision 0.');
    expect(await app.packetIds('compiled')).toEqual(packet);
    expect(await app.receiptId()).toBe(before);
    await editor.getByRole('button', { name: 'Redo edit' }).click();
    await expect(editor.getByTestId('record-edit-status')).toContainText('Redone: revision 1.');
    expect(await app.packetIds('compiled')).not.toContain(id);
  });

  test('a control authored from an edit toggles, and the exported scenario validates and loads back to the same receipt', async ({
    app,
    page,
  }) => {
    await app.goto();
    const before = await app.receiptId();
    const editor = page.getByTestId('record-editor');
    await editor.getByLabel('Record id').fill('SEC-0042');
    await editor.getByRole('button', { name: 'Open record' }).click();
    const form = editor.getByRole('form', { name: 'Edit SEC-0042' });
    // SEC-0042 is for security engineers: granted to the chain's roles, it passes authorisation.
    await form.getByRole('button', { name: 'Edit as JSON' }).click();
    const json = form.getByRole('textbox', { name: 'Record JSON' });
    await json.fill(
      (await json.inputValue()).replace('"security_engineer"', '"payments_engineer", "design_assistant"'),
    );
    await form.getByRole('textbox', { name: 'Label for a control or late change' }).fill('Grant SEC-0042 to the team');
    await form.getByRole('button', { name: 'Save as control' }).click();
    await expect(editor.getByTestId('record-edit-status')).toContainText(
      'Added the control “Grant SEC-0042 to the team” (grant-sec-0042-to-the-team)',
    );
    expect(await app.receiptId()).toBe(before);
    const excluded = await app.record('SEC-0042');

    await app.setControl('Grant SEC-0042 to the team', true);
    const granted = await app.receiptId();
    expect(granted).not.toBe(before);
    expect((await app.record('SEC-0042')).code).not.toBe(excluded.code);
    await app.setControl('Grant SEC-0042 to the team', false);
    expect(await app.receiptId()).toBe(before);
    await app.setControl('Grant SEC-0042 to the team', true);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export scenario' }).click(),
    ]);
    const text = readFileSync(await download.path(), 'utf8');
    const file = scenarioSchema.safeParse(JSON.parse(text));
    expect(file.success).toBe(true);
    expect(file.data?.controls.map((control) => control.id)).toContain('grant-sec-0042-to-the-team');

    await app.resetWorkspace();
    await app.dropFiles([{ name: 'retry-policy.scenario.json', mimeType: 'application/json', text }]);
    await expect(app.scenarioPicker).toHaveValue('loaded:retry-policy');
    await app.setControl('Grant SEC-0042 to the team', true);
    expect(await app.receiptId()).toBe(granted);
  });
});
