// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useResultStore } from '../state/result-store';
import { installFakeApi, resetStores, sampleView } from '../test-support';
import { ExportPanel } from './ExportPanel';

describe('ExportPanel', () => {
  beforeEach(() => {
    resetStores();
    installFakeApi();
  });
  afterEach(cleanup);

  it('copies the packet text with its manifest and confirms it', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    render(<ExportPanel />);
    await user.click(screen.getByRole('button', { name: 'Copy packet' }));
    expect(writeText).toHaveBeenCalledWith('=== CONTEXT PACKET ===\nreceipt: aaaa');
    expect(await screen.findByText(/Packet copied/)).toBeInTheDocument();
  });

  it('downloads the receipt the worker serialises', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({ receiptJson: vi.fn(async () => '{"receiptId":"a"}') });
    const createObjectURL = vi.fn(() => 'blob:receipt');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    render(<ExportPanel />);
    await user.click(screen.getByRole('button', { name: 'Download diagnostic receipt' }));
    expect(api.receiptJson).toHaveBeenCalled();
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Diagnostic receipt downloaded.')).toBeInTheDocument();
  });

  it('offers the user-view export, never the receipt, in the user view, and labels the packet copy', async () => {
    const user = userEvent.setup();
    const api = installFakeApi();
    URL.createObjectURL = vi.fn(() => 'blob:user-view');
    URL.revokeObjectURL = vi.fn();
    resetStores(sampleView({ audience: 'user', withheldCount: 2, packetText: '=== CONTEXT PACKET ===\nview: user' }));
    render(<ExportPanel />);
    expect(screen.queryByRole('button', { name: /receipt/i })).toBeNull();
    expect(screen.getByTestId('export-view')).toHaveTextContent(
      '2 records outside the authorised scope are counted, never named',
    );
    await user.click(screen.getByRole('button', { name: 'Download user view' }));
    expect(api.userViewJson).toHaveBeenCalled();
    expect(api.receiptJson).not.toHaveBeenCalled();
    expect(await screen.findByText('User view downloaded (not a receipt).')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download packet' }));
    expect(api.packetJson).toHaveBeenCalledWith('user');
  });

  it('downloads the receipt as an in-toto statement, also when no packet was emitted', async () => {
    const user = userEvent.setup();
    resetStores(sampleView({ status: 'fail_closed', packetText: null }));
    const api = installFakeApi({ statementJson: vi.fn(async () => '{"_type":"https://in-toto.io/Statement/v1"}') });
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:statement';
    });
    URL.revokeObjectURL = vi.fn();
    render(<ExportPanel />);
    expect(screen.queryByRole('button', { name: 'Download packet' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Download statement' }));
    expect(api.statementJson).toHaveBeenCalled();
    expect(await blobs[0]?.text()).toContain('in-toto.io/Statement/v1');
    expect(await screen.findByText('Statement downloaded (in-toto Statement v1).')).toBeInTheDocument();
  });

  it('exports nothing while a compilation is replacing the result on screen', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({ receiptJson: vi.fn(async () => '{"receiptId":"a"}') });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    writeText.mockClear();
    useResultStore.setState({ compiling: true });
    render(<ExportPanel />);
    for (const name of ['Copy packet', 'Download packet', 'Download diagnostic receipt', 'Download statement']) {
      const button = screen.getByRole('button', { name });
      expect(button).toHaveAttribute('aria-disabled', 'true');
      await user.click(button);
    }
    expect(api.receiptJson).not.toHaveBeenCalled();
    expect(writeText).not.toHaveBeenCalled();
  });
});
