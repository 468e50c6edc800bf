// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { inputIssue } from '../../core/issues';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoadResult } from '../../worker/protocol';
import { useScenarioStore } from '../state/scenario-store';
import { installFakeApi, resetStores, sampleWorkspace } from '../test-support';
import { App } from './App';

describe('file loading', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('hands picked files to the worker and lists every problem by file, line and path', async () => {
    const user = userEvent.setup();
    const loadFiles = vi.fn(async (): Promise<LoadResult> => ({
      status: 'rejected',
      issues: [
        inputIssue({ file: 'bad.jsonl', line: 3, path: 'tokens' }, 'FORMAT_RULE', { problem: 'expected number' }),
      ],
      summaries: [
        {
          file: 'bad.jsonl',
          message: 'read as a records JSONL file (recognised by id, text): not a valid records file: 1 problem',
        },
      ],
    }));
    const api = installFakeApi({ loadFiles });
    render(<App />);
    const file = new File(['{}'], 'bad.jsonl');
    await user.upload(screen.getByTestId('file-input'), file);
    expect(loadFiles).toHaveBeenCalledWith([file], expect.any(Function));
    expect(await screen.findByTestId('load-errors')).toHaveTextContent('nothing that was loaded before has changed');
    expect(screen.getByTestId('load-issue')).toHaveTextContent('bad.jsonl:3: tokens: expected number');
    expect(screen.getByTestId('load-file-summary')).toHaveTextContent(
      'bad.jsonl: read as a records JSONL file (recognised by id, text): not a valid records file: 1 problem',
    );
    expect(api.compile).not.toHaveBeenCalled();
  });

  it('accepts files dropped anywhere on the page', async () => {
    const loadFiles = vi.fn(async (): Promise<LoadResult> => ({
      status: 'loaded',
      snapshot: sampleWorkspace(),
      kinds: [{ file: 'scenario.json', kind: 'scenario' }],
      receiptChecks: [],
      suites: [],
    }));
    installFakeApi({ loadFiles });
    render(<App />);
    const file = new File(['{}'], 'scenario.json');
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [file], types: ['Files'] } });
    expect(await screen.findByTestId('load-result')).toHaveTextContent('Loaded scenario.json (scenario).');
  });

  it('shows progress with a cancel while the worker reads, and reports a saved receipt check with its diff', async () => {
    const recordsDiff = {
      before: { receiptId: 'a', schemaVersion: 'context-compiler/2' },
      after: { receiptId: 'b', schemaVersion: 'context-compiler/2' },
      identical: false,
      firstDifference: { path: 'controls[0]', recordId: null },
      sections: [{ key: 'records' as const, title: 'Records: 1 added, 0 removed', lines: ['+ ADR-0198'], more: 0 }],
    };
    const user = userEvent.setup();
    const api = installFakeApi();
    useScenarioStore.setState({
      load: { status: 'loading', progress: { file: 'big.jsonl', phase: 'reading', done: 50, total: 200 } },
    });
    render(<App />);
    expect(screen.getByRole('progressbar', { name: 'Loading files' })).toHaveAttribute('value', '25');
    await user.click(screen.getByRole('button', { name: 'Cancel loading' }));
    expect(api.cancelLoad).toHaveBeenCalled();

    useScenarioStore.setState({
      load: {
        status: 'loaded',
        message: 'Loaded receipt.json (receipt).',
        receiptChecks: [
          {
            file: 'receipt.json',
            verdict: {
              action: 'recompile_required',
              code: 'STALE_RECORD_SET',
              message: 'The records changed.',
              priorReceiptId: 'a',
              currentReceiptId: 'b',
              reperformed: true,
              diff: { diagnostic: recordsDiff, user: recordsDiff },
            },
          },
        ],
        checkedAt: 0,
      },
    });
    expect(await screen.findByTestId('receipt-check')).toHaveTextContent(
      'receipt.json: STALE — RECOMPILE REQUIRED STALE_RECORD_SET',
    );
    expect(screen.getByTestId('diff-records')).toHaveTextContent('+ ADR-0198');
  });

  it('says plainly when storage is unavailable', () => {
    installFakeApi();
    useScenarioStore.setState({
      workspace: sampleWorkspace({ storage: { status: 'unavailable', message: 'Browser storage is full.' } }),
    });
    render(<App />);
    expect(screen.getByTestId('storage-notice')).toHaveTextContent('Browser storage is full.');
  });
});
