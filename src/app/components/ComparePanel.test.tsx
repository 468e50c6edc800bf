// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetStores, sampleView } from '../test-support';
import { useResultStore } from '../state/result-store';
import { ComparePanel } from './ComparePanel';
import { ExportPanel } from './ExportPanel';

describe('ComparePanel', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('shows the three packets with illegal counts, missed required records and token meters', () => {
    render(<ComparePanel />);
    const naive = screen.getByRole('region', { name: 'Naive top-k' });
    expect(within(naive).getByTestId('illegal-count-naive')).toHaveTextContent('1 illegal record let in');
    expect(within(naive).getByTestId('required-missed-naive')).toHaveTextContent('Required missed: ADR-0234');
    expect(within(naive).getByRole('meter', { name: 'Naive top-k tokens used' })).toBeInTheDocument();
    const compiled = screen.getByRole('region', { name: 'Compiled packet' });
    expect(within(compiled).getByTestId('entry-compiled-ADR-0234')).toHaveTextContent('required');
    expect(within(compiled).getByTestId('tokens-compiled')).toHaveTextContent('30 / 96 tokens');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why an empty post-filter column is empty: every record of the top k was illegal', () => {
    const sample = sampleView();
    const naive = sample.columns.naive;
    if (!naive) throw new Error('the sample view has a naive column');
    const empty = {
      ...naive,
      kind: 'post-filter' as const,
      entries: [],
      tokensUsed: 0,
      illegalCount: 0,
      requiredMissed: [],
      emptyNote: { code: 'EVERY_TOP_K_ILLEGAL' as const, args: { k: 5, ranked: 5 } },
    };
    resetStores(sampleView({ columns: { ...sample.columns, postFilter: empty } }));
    render(<ComparePanel />);
    const column = screen.getByRole('region', { name: 'Post-filter top-k' });
    expect(within(column).getByTestId('empty-note-post-filter')).toHaveTextContent(
      "Empty: all 5 records in relevance's top 5 are illegal, and post-filtering drops them without looking further down the ranking.",
    );
    expect(within(screen.getByRole('region', { name: 'Naive top-k' })).queryByTestId('empty-note-naive')).toBeNull();
  });

  it('shows the compiled packet while the baselines wait for the whole-corpus index, with its progress', () => {
    const sample = sampleView();
    resetStores(
      sampleView({
        baselineIndexing: { done: 0, total: 100_000 },
        columns: { ...sample.columns, naive: null, postFilter: null },
      }),
    );
    useResultStore.setState({ baselineProgress: { done: 42_000, total: 100_000 } });
    render(<ComparePanel />);
    expect(screen.getByTestId('baseline-indexing-naive')).toHaveTextContent(
      'Indexing every record for this baseline: 42,000 of 100,000 (42%).',
    );
    expect(screen.getByRole('progressbar', { name: 'Post-filter top-k: indexing the whole corpus' })).toHaveAttribute(
      'value',
      '42000',
    );
    expect(
      within(screen.getByRole('region', { name: 'Compiled packet' })).getByTestId('entry-compiled-ADR-0234'),
    ).toBeInTheDocument();
  });

  it('marks the entries that entered a packet and lists those that left, with their codes in words', () => {
    const sample = sampleView();
    resetStores(
      sampleView({
        marks: {
          since: 0,
          columns: {
            naive: { entered: ['LED-0045'], left: [{ id: 'ADR-0198', title: 'Old retry decision', now: null }] },
            postFilter: { entered: [], left: [] },
            compiled: {
              entered: [],
              left: [{ id: 'RUN-0866', title: 'Incident run', now: { decision: 'excluded', code: 'EXCLUDE_BUDGET' } }],
            },
          },
        },
        columns: sample.columns,
      }),
    );
    render(<ComparePanel />);
    expect(screen.getByTestId('entered-naive-LED-0045')).toHaveTextContent(
      '◆ entered: LED-0045, illegal · EXCLUDE_SCOPE Outside the scopes the contract allows.',
    );
    expect(screen.getByTestId('left-naive-ADR-0198')).toHaveTextContent(
      '◆ left: ADR-0198 Old retry decision, no longer among the records',
    );
    expect(screen.getByTestId('left-compiled-RUN-0866')).toHaveTextContent(
      'now excluded · EXCLUDE_BUDGET Legal and ranked, but pruned',
    );
    expect(screen.queryByTestId('entered-compiled-ADR-0234')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent(
      '◆ At the last change: naive top-k: 1 entry entered, 1 left; compiled packet: 0 entries entered, 1 left.',
    );
  });

  it('shows a fail-closed state with its code, no packet, and no copy action', () => {
    const failed = sampleView({
      status: 'fail_closed',
      packetText: null,
      packetFingerprint: null,
      failure: {
        code: 'REQUIRED_MISSING_PROVENANCE',
        summary: '',
        message: 'Required record ADR-0234 has no verifiable provenance.',
        recordId: 'ADR-0234',
        fact: 'no provenance recorded',
      },
      columns: {
        ...sampleView().columns,
        compiled: { ...sampleView().columns.compiled, emitted: false, entries: [], requiredMissed: ['ADR-0234'] },
      },
    });
    resetStores(failed);
    render(
      <>
        <ComparePanel />
        <ExportPanel />
      </>,
    );
    expect(screen.getByTestId('fail-closed')).toHaveTextContent('FAIL-CLOSED — REQUIRED_MISSING_PROVENANCE');
    expect(screen.getByTestId('no-packet')).toHaveTextContent('No packet emitted.');
    expect(screen.queryByRole('button', { name: 'Copy packet' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download diagnostic receipt' })).toBeInTheDocument();
  });

  it('leaves the relevance-only packets to the diagnostic view, saying why', () => {
    const view = sampleView({ audience: 'user' });
    resetStores({ ...view, columns: { ...view.columns, naive: null, postFilter: null } });
    render(<ComparePanel />);
    expect(screen.getByTestId('diagnostic-only-naive')).toHaveTextContent('Shown in the diagnostic view only');
    expect(screen.getByTestId('diagnostic-only-post-filter')).toBeInTheDocument();
    expect(screen.queryByTestId('illegal-count-naive')).toBeNull();
    expect(screen.getByTestId('entry-compiled-ADR-0234')).toBeInTheDocument();
  });

  it('gives each entry its reason code and a way into the inspector, and each column its proposition coverage', () => {
    const base = sampleView();
    const naive = base.columns.naive;
    if (!naive) throw new Error('sample has a naive column');
    resetStores(
      sampleView({
        columns: {
          ...base.columns,
          naive: {
            ...naive,
            coverage: [
              {
                proposition: 'waiver_valid',
                blocking: true,
                state: 'unknown',
                supporting: [],
                contradicting: [],
                illegal: ['LED-0045'],
                notAccepted: ['N7'],
              },
              {
                proposition: 'facility_limit',
                blocking: true,
                state: 'supported',
                supporting: ['F-102'],
                contradicting: [],
                illegal: [],
                notAccepted: [],
              },
            ],
          },
        },
      }),
    );
    render(<ComparePanel />);
    expect(screen.getByTestId('entry-naive-LED-0045')).toHaveTextContent('illegal: EXCLUDE_SCOPE');
    expect(screen.getByTestId('entry-compiled-ADR-0234')).toHaveTextContent('SELECTED_REQUIRED');
    expect(screen.getAllByRole('button', { name: 'Inspect LED-0045' }).length).toBeGreaterThan(0);
    expect(screen.getByTestId('propositions-naive')).toHaveTextContent('✗ 1 of 2 required propositions not answered');
    expect(screen.getByTestId('coverage-naive-waiver_valid')).toHaveTextContent(
      '✗ not answered; only illegally by LED-0045; mentioned by N7, a class not accepted for it',
    );
    expect(screen.getByTestId('coverage-naive-facility_limit')).toHaveTextContent('✓ F-102');
    expect(screen.getByRole('table', { name: 'Required propositions each packet answers' })).toBeInTheDocument();
  });

  it('counts a contradicted proposition as not answered, whatever supports it too', () => {
    const base = sampleView();
    const contradicted = (proposition: string) => ({
      proposition,
      blocking: true,
      state: 'contradicted' as const,
      supporting: ['W-1'],
      contradicting: ['C-1'],
      illegal: [],
      notAccepted: [],
    });
    const coverage = [contradicted('waiver_granted'), contradicted('limit_set')];
    const { naive, postFilter, compiled } = base.columns;
    if (!naive || !postFilter) throw new Error('sample has baseline columns');
    resetStores(
      sampleView({
        columns: {
          naive: { ...naive, coverage },
          postFilter: { ...postFilter, coverage },
          compiled: { ...compiled, coverage },
        },
      }),
    );
    render(<ComparePanel />);
    expect(screen.getByTestId('propositions-compiled')).toHaveTextContent(
      '✗ 2 of 2 required propositions not answered (2 contradicted)',
    );
    expect(screen.queryByText(/All 2 required propositions answered/)).toBeNull();
    expect(screen.getByTestId('coverage-compiled-waiver_granted')).toHaveTextContent(
      '✗ contradicted by C-1; supported by W-1',
    );
  });
});
