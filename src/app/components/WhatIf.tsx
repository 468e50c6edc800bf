import { useEffect } from 'react';
import type { RecordInspection, WhatIfSuggestion } from '../../worker/protocol';
import { useDebugStore } from '../state/debug-store';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { applySuggestion, loadWhatIf } from '../state/what-if-actions';
import { CodeLink } from './Glossary';

function Suggestion({ id, suggestion, index }: { id: string; suggestion: WhatIfSuggestion; index: number }) {
  const { verifiedBy } = suggestion;
  return (
    <li data-testid={`what-if-${suggestion.code}`}>
      <span className="what-if-text">{suggestion.text}</span>
      <span className="caption what-if-verified" data-testid={`what-if-verified-${index}`}>
        {' '}
        — verified by compiling{' '}
        {verifiedBy.change === 'contract'
          ? 'the contract with this change'
          : 'the record with this change'} (contract <code>{verifiedBy.contractFingerprint.slice(0, 12)}</code>):{' '}
        {verifiedBy.decision} · <CodeLink code={verifiedBy.code} />
      </span>
      <button type="button" className="secondary" onClick={() => void applySuggestion(id, suggestion)}>
        {verifiedBy.change === 'contract' ? 'Apply to the contract' : 'Apply to the record (a new revision)'}
      </button>
    </li>
  );
}

/**
 * What would admit the inspected record, or take an admitted one out of the admitted set: each change compiled
 * before it is listed, with the compilation that confirmed it. Asked once per record, compilation and view.
 */
export function WhatIf({ record }: { record: RecordInspection }) {
  const audience = useUiStore((state) => state.audience);
  const compilation = useResultStore((state) => (state.response?.ok ? state.response.view.compilation : null));
  const whatIf = useDebugStore((state) => state.whatIf);
  const issue = useDebugStore((state) => state.whatIfIssue);
  const key = `${compilation ?? ''}:${audience}`;
  useEffect(() => {
    if (compilation !== null) void loadWhatIf(record.id, key);
  }, [record.id, key, compilation]);
  const response = whatIf?.id === record.id && whatIf.key === key ? whatIf.response : null;
  return (
    <section aria-labelledby="what-if-heading" data-testid="what-if">
      <h3 id="what-if-heading">
        {response?.ok && response.admitted ? 'What would exclude it' : 'What would admit it'}
      </h3>
      {response === null ? (
        <p aria-busy="true">Compiling each candidate change…</p>
      ) : !response.ok ? (
        <p>{response.message}</p>
      ) : (
        <>
          <p className="caption">
            Each change below was compiled{audience === 'user' ? ' on the records this view shows' : ''} and{' '}
            {response.admitted ? 'excludes' : 'admits'} the record; a change that did not is not listed.
          </p>
          {response.suggestions.length === 0 ? (
            <p data-testid="what-if-none">
              No single change to the contract or to this record {response.admitted ? 'excludes' : 'admits'} it.
            </p>
          ) : (
            <ul className="what-if-list" data-testid="what-if-list">
              {response.suggestions.map((suggestion, index) => (
                <Suggestion key={`${suggestion.code}-${index}`} id={record.id} suggestion={suggestion} index={index} />
              ))}
            </ul>
          )}
        </>
      )}
      {issue ? (
        <p className="warning" role="alert">
          Not applied: {issue}
        </p>
      ) : null}
    </section>
  );
}
