import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { InputIssue } from '../../core/errors';
import { formatJson, highlightJson } from './json-highlight';

/** How long typing pauses before the text is checked: each keystroke would otherwise ask the worker. */
const CHECK_AFTER_MS = 200;

/**
 * The problems of `text` as typed, checked (by the worker) once typing pauses; a later answer replaces an earlier one.
 */
export function useTypedIssues(
  text: string,
  check: (text: string) => Promise<readonly InputIssue[]>,
): readonly InputIssue[] {
  const [issues, setIssues] = useState<readonly InputIssue[]>([]);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      void check(text).then((found) => {
        if (current) setIssues(found);
      });
    }, CHECK_AFTER_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, check]);
  return issues;
}

interface JsonEditorProps {
  readonly label: string;
  readonly text: string;
  readonly onChange: (text: string) => void;
  /** Ctrl+Enter (Cmd+Enter on a Mac) does what the editor's apply button does. */
  readonly onApply: () => void;
  /**
   * Problems of the text as typed (file, line and field, as the CLI words them), checked before anything is applied.
   */
  readonly issues: readonly InputIssue[];
  /** The id of the element that lists the problems, for the textarea's description. */
  readonly issuesId: string;
  readonly testId: string;
}

/**
 * A JSON text field with highlighting: the textarea stays the one editable, accessible surface, and a highlighted
 * copy of its text is drawn beneath it (CodeMirror's JSON grammar, coloured by class names from the app's own
 * stylesheet, so the page's style-src 'self' holds). Lines with a problem are marked in the copy.
 */
export function JsonEditor({ label, text, onChange, onApply, issues, issuesId, testId }: JsonEditorProps) {
  const drawing = useRef<HTMLPreElement>(null);
  const lines = useMemo(() => highlightJson(text), [text]);
  const badLines = useMemo(
    () => new Set(issues.flatMap((issue) => (issue.line === undefined ? [] : [issue.line]))),
    [issues],
  );
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onApply();
    }
  };
  const format = () => {
    const formatted = formatJson(text);
    if (formatted !== null) onChange(formatted);
  };
  return (
    <div className="json-editor">
      <div className="button-row">
        <button
          type="button"
          className="secondary"
          onClick={format}
          disabled={formatJson(text) === null}
          data-testid={`${testId}-format`}
        >
          Format
        </button>
        <span className="caption">Ctrl+Enter (⌘+Enter) applies.</span>
      </div>
      <label className="field">
        <span>{label}</span>
        <span className="json-editor-surface">
          <pre className="json-editor-drawing" ref={drawing} aria-hidden="true">
            {lines.map((tokens, index) => (
              <span
                key={index}
                className={badLines.has(index + 1) ? 'json-line json-line-problem' : 'json-line'}
                data-testid={badLines.has(index + 1) ? `${testId}-problem-line` : undefined}
              >
                {tokens.map((token, at) =>
                  token.className === '' ? (
                    token.text
                  ) : (
                    <span key={at} className={token.className}>
                      {token.text}
                    </span>
                  ),
                )}
                {'\n'}
              </span>
            ))}
          </pre>
          <textarea
            value={text}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={onKeyDown}
            onScroll={(event) => {
              if (drawing.current === null) return;
              drawing.current.scrollTop = event.currentTarget.scrollTop;
              drawing.current.scrollLeft = event.currentTarget.scrollLeft;
            }}
            rows={18}
            wrap="off"
            spellCheck={false}
            aria-invalid={issues.length > 0}
            aria-describedby={issues.length > 0 ? issuesId : undefined}
            data-testid={testId}
          />
        </span>
      </label>
    </div>
  );
}
