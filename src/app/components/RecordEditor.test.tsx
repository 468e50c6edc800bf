// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildRecord } from '../../core/test-support/builders';
import { inputIssue } from '../../core/issues';
import { INITIAL_EDIT, useEditStore } from '../state/edit-actions';
import { installFakeApi, resetStores, sampleWorkspace } from '../test-support';
import { RecordEditor } from './RecordEditor';

const history = (revision: number, canRedo = false) => ({
  scenarioKey: 'retry-policy',
  revision,
  canUndo: revision > 0,
  canRedo,
});

describe('RecordEditor', () => {
  beforeEach(() => {
    resetStores();
    useEditStore.setState(INITIAL_EDIT);
  });
  afterEach(cleanup);

  it('opens a record in a form, sends the edited fields, and names a refused field beside it', async () => {
    const user = userEvent.setup();
    const record = buildRecord({ id: 'ADR-0234', title: 'Retry policy', tokens: 20 });
    const editRecord = vi.fn(async () => ({
      ok: false as const,
      issues: [inputIssue({ file: 'record', path: 'tokens' }, 'FORMAT_RULE', { problem: 'expected a number' })],
      history: history(0),
    }));
    const api = installFakeApi({
      recordForEdit: vi.fn(async () => ({ ok: true as const, record, ids: ['ADR-0234'], history: history(0) })),
      editRecord,
    });
    render(<RecordEditor />);
    await user.type(screen.getByLabelText('Record id'), 'ADR-0234');
    await user.click(screen.getByRole('button', { name: 'Open record' }));
    const tokens = await screen.findByRole('textbox', { name: 'Tokens' });
    expect(tokens).toHaveValue('20');
    await user.clear(tokens);
    await user.type(tokens, 'many');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Lifecycle' }), 'retired');
    await user.click(screen.getByRole('button', { name: 'Apply edit' }));
    expect(editRecord).toHaveBeenCalledWith(
      {
        id: 'ADR-0234',
        as: 'revision',
        value: expect.objectContaining({ tokens: 'many', lifecycle: 'retired', title: 'Retry policy' }),
      },
      'diagnostic',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('tokens: expected a number');
    expect(tokens).toHaveAttribute('aria-invalid', 'true');
    expect(tokens).toHaveAccessibleDescription('tokens: expected a number');
    expect(api.compile).not.toHaveBeenCalled();
  });

  it('keeps an edit as a control with its label, then compiles; undo and redo follow the worker', async () => {
    const user = userEvent.setup();
    const record = buildRecord({ id: 'SEC-0042' });
    // The worker's history, as every answer reports it.
    let now = history(0);
    const done = (revision: number, message: string, canRedo = false) => {
      now = history(revision, canRedo);
      return { ok: true as const, snapshot: sampleWorkspace(), history: now, message };
    };
    const editRecord = vi.fn(async () => done(1, 'Added the control “Grant” (grant).'));
    const undoRecordEdit = vi.fn(async () => done(0, 'Undone: back to revision 0.', true));
    const api = installFakeApi({
      recordForEdit: vi.fn(async () => ({ ok: true as const, record, ids: [], history: now })),
      editRecord,
      undoRecordEdit,
    });
    render(<RecordEditor />);
    expect(screen.getByRole('button', { name: 'Undo edit' })).toHaveAttribute('aria-disabled', 'true');
    await user.type(screen.getByLabelText('Record id'), 'SEC-0042');
    await user.click(screen.getByRole('button', { name: 'Open record' }));
    await user.type(await screen.findByRole('textbox', { name: 'Label for a control or late change' }), 'Grant');
    await user.click(screen.getByRole('button', { name: 'Save as control' }));
    expect(editRecord).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'SEC-0042', as: 'control', label: 'Grant' }),
      'diagnostic',
    );
    await vi.waitFor(() =>
      expect(screen.getByTestId('record-edit-status')).toHaveTextContent(
        'Added the control “Grant” (grant). Revision 1 of the records is in force.',
      ),
    );
    expect(api.compile).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Undo edit' }));
    expect(undoRecordEdit).toHaveBeenCalled();
    await vi.waitFor(() =>
      expect(screen.getByTestId('record-edit-status')).toHaveTextContent(/^Undone: back to revision 0\.$/),
    );
    expect(screen.getByRole('button', { name: 'Redo edit' })).toHaveAttribute('aria-disabled', 'false');
  });
});
